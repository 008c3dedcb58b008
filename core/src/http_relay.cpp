#include "upin/core/http_relay.h"

#include "http_lines.h"

#include "upin/core/header_params.h"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

namespace upin::core {
namespace {

constexpr std::array<std::string_view, 7> kHopByHop{"connection", "keep-alive",          "proxy-connection",  "te",
                                                    "upgrade",    "proxy-authorization", "proxy-authenticate"};
// What a hop-by-hop list may not remove: the body's framing and the request's authority.
constexpr std::array<std::string_view, 3> kNotHopByHop{"content-length", "transfer-encoding", "host"};
// Ours to set: a client's own would claim a scheme or a host it did not use.
constexpr std::array<std::string_view, 2> kReplaced{"x-forwarded-proto", "x-forwarded-host"};

bool named(std::string_view name, std::span<const std::string_view> list)
{
    return std::any_of(list.begin(), list.end(), [&](std::string_view n) { return equalsIgnoreCase(n, name); });
}

// Every token of every Connection field, in order.
std::vector<std::string_view> connectionTokens(const RequestHead& head)
{
    std::vector<std::string_view> tokens;
    for (const HttpField& field : head.fields) {
        if (!equalsIgnoreCase(field.name, "connection"))
            continue;
        for (size_t start = 0; start <= field.value.size();) {
            const size_t comma = std::min(field.value.find(',', start), field.value.size());
            const std::string_view token = http_detail::trimSpaces(field.value.substr(start, comma - start));
            if (!token.empty())
                tokens.push_back(token);
            start = comma + 1;
        }
    }
    return tokens;
}

void appendField(std::string& out, std::string_view name, std::string_view value)
{
    out.append(name).append(": ").append(value).append("\r\n");
}

} // namespace

std::string_view originForm(std::string_view target)
{
    const size_t scheme = target.find("://");
    if (target.empty() || target.front() == '/' || scheme == std::string_view::npos)
        return target;
    const size_t path = target.find_first_of("/?", scheme + 3);
    return path == std::string_view::npos ? std::string_view("/") : target.substr(path);
}

std::string_view authorityOf(std::string_view target)
{
    const size_t scheme = target.find("://");
    if (target.empty() || target.front() == '/' || scheme == std::string_view::npos)
        return {};
    const size_t start = scheme + 3;
    const size_t end = target.find_first_of("/?#", start);
    return target.substr(start, (end == std::string_view::npos ? target.size() : end) - start);
}

Result<std::string> relayHead(const RequestHead& head, const RelayTarget& target)
{
    // A head whose framing does not read one way is never sent on: the repeated Content-Length below goes on once,
    // which would otherwise turn "5, then x5" into a valid head.
    if (auto framing = bodyFraming(head); !framing)
        return framing.error();
    const std::vector<std::string_view> dropped = connectionTokens(head);
    for (std::string_view token : dropped)
        if (named(token, kNotHopByHop))
            return Error{Errc::ConnectionNamesFraming, offsetIn(head.begin, token)};
    std::string_view prefix = target.pathPrefix;
    if (!prefix.empty() && prefix.back() == '/')
        prefix.remove_suffix(1);
    std::string_view path = originForm(head.target);
    std::string out;
    out.reserve(1024);
    out.append(head.method).append(" ").append(prefix);
    if (path.front() != '/' && path != "*") // "?q" of "http://h?q"
        out.append("/");
    out.append(path == "*" && !prefix.empty() ? "/" : path).append(" HTTP/1.1\r\n");
    // RFC 9112 3.2.2: an absolute-form target's authority is the request's host, whatever Host says.
    const std::string_view clientHost =
        path.size() == head.target.size() ? head.field("host") : authorityOf(head.target);
    appendField(out, "Host", target.preserveHost && !clientHost.empty() ? clientHost : target.upstreamHost);
    std::string forwardedFor;
    bool lengthSent = false; // Content-Length repeated with one value (bodyFraming allows it) goes on once
    for (const HttpField& field : head.fields) {
        if (equalsIgnoreCase(field.name, "host") || named(field.name, kHopByHop) || named(field.name, dropped) ||
            (target.forwardedFields && named(field.name, kReplaced)) || named(field.name, target.ownFields))
            continue;
        if (equalsIgnoreCase(field.name, "content-length") && std::exchange(lengthSent, true))
            continue;
        if (target.forwardedFields && equalsIgnoreCase(field.name, "x-forwarded-for")) { // a chain, in order
            forwardedFor.append(field.value).append(", ");
            continue;
        }
        appendField(out, field.name, field.value);
    }
    if (!target.forwardedFields)
        return out.append("\r\n");
    appendField(out, "X-Forwarded-For", forwardedFor.append(target.clientAddress));
    appendField(out, "X-Forwarded-Proto", target.proto);
    if (!clientHost.empty())
        appendField(out, "X-Forwarded-Host", clientHost);
    return out.append("\r\n");
}

} // namespace upin::core
