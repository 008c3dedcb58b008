# The version the programs print and the package carries: git describe's, as a Debian version.
#   a tag v1.2.3 on HEAD        -> 1.2.3
#   N commits after tag v1.2.3  -> 1.2.3+N.gHASH   (git describe's v1.2.3-N-gHASH; a '-' would start a Debian revision)
#   no such tag (a clone of main) -> PROJECT_VERSION+N.gHASH, N counted from the first commit (a shallow clone's
#                                  depth, there: clone whole to package)
#   not a git checkout          -> PROJECT_VERSION
# Uncommitted changes add "~dirty", which Debian sorts below the same version without it, so a build from an edited
# tree never outranks the commit's own or a later one's (".dirty" sorted above "+1.g..."). Read at configure time:
# scripts/test, scripts/run and scripts/package configure on every run, so what they build carries its commit.
function(upin_git_version out)
  set(version ${PROJECT_VERSION})
  find_package(Git QUIET)
  if(GIT_FOUND AND EXISTS ${PROJECT_SOURCE_DIR}/.git)
    execute_process(COMMAND ${GIT_EXECUTABLE} describe --tags --match "v[0-9]*" --exclude "v*-*"
      --long --dirty=~dirty
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} OUTPUT_VARIABLE described RESULT_VARIABLE failed
      OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    # Only a tag that is a Debian upstream version (digits first; letters, digits, '.', '+', '~') is taken; one with
    # a '-' (v1.1-rc1) is passed over for the release tag before it (--exclude), rather than dropping to no tag.
    if(NOT failed AND described MATCHES "^v([0-9][0-9A-Za-z.+~]*)-([0-9]+)-g([0-9a-f]+)(~dirty)?$")
      set(version ${CMAKE_MATCH_1})
      if(NOT CMAKE_MATCH_2 STREQUAL "0")
        string(APPEND version "+${CMAKE_MATCH_2}.g${CMAKE_MATCH_3}")
      endif()
      string(APPEND version "${CMAKE_MATCH_4}")
    else()
      execute_process(COMMAND ${GIT_EXECUTABLE} rev-list --count HEAD WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
        OUTPUT_VARIABLE count RESULT_VARIABLE failed_count OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      # The commit itself, never a tag's name (describe --always would give one, hyphens and all).
      execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=7 HEAD WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
        OUTPUT_VARIABLE hash RESULT_VARIABLE failed_hash OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      execute_process(COMMAND ${GIT_EXECUTABLE} diff --quiet HEAD WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
        RESULT_VARIABLE changed ERROR_QUIET)
      if(NOT failed_count AND NOT failed_hash)
        set(version "${PROJECT_VERSION}+${count}.g${hash}")
        if(changed)
          string(APPEND version "~dirty")
        endif()
      endif()
    endif()
  endif()
  set(${out} ${version} PARENT_SCOPE)
endfunction()

upin_git_version(UPIN_VERSION)
message(STATUS "Upload Inspector version ${UPIN_VERSION}")
# One small header, so that a new commit rebuilds the two mains only (configure_file rewrites it only on a change).
file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/generated/upin_version.h
  CONTENT "#pragma once\n#define UPIN_VERSION \"${UPIN_VERSION}\"\n" @ONLY)
