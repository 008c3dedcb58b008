#pragma once
// One table per enum gives both directions, enum -> name and name -> enum, so the two can never disagree.
//
//     inline constexpr EnumNames<Color, 2> kColorNames{{{Color::Red, "red"}, {Color::Blue, "blue"}}};
//     kColorNames.name(Color::Red) == "red";  kColorNames.find("blue") == Color::Blue;
//
// The table order is also the order in which user interfaces list the values (values()).

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace upin::core {

template <typename Enum, size_t N>
struct EnumNames {
    struct Entry {
        Enum value;
        std::string_view name;
    };
    std::array<Entry, N> entries;

    // The value's name; an empty view for a value that is not in the table.
    constexpr std::string_view name(Enum value) const
    {
        for (const auto& e : entries)
            if (e.value == value)
                return e.name;
        return {};
    }
    // The value whose name this is (exact, case-sensitive), or nullopt.
    constexpr std::optional<Enum> find(std::string_view name) const
    {
        for (const auto& e : entries)
            if (e.name == name)
                return e.value;
        return std::nullopt;
    }
    constexpr std::array<Enum, N> values() const
    {
        std::array<Enum, N> out{};
        for (size_t i = 0; i < N; ++i)
            out[i] = entries[i].value;
        return out;
    }
};

} // namespace upin::core
