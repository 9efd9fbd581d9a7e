// Fuzz target: the HTTP router (server/src/http/router.hpp) with the real site (the repository's
// web/ templates and catalogs), a Registry over MemoryStorage and the JSON API behind it.
//
// Input: up to 4 requests separated by a line "---". Each request is "METHOD TARGET" on its
// first line, then header lines "l: Accept-Language", "e: Accept-Encoding", "c: Content-Type",
// then an empty line and the body. In the target and body, {A} becomes the id of a friend game
// waiting for its second seat, {I} its invite token, {B} the id of a finished game and {C} the
// id of the last game a request created.
//
// Invariants: no request makes the router answer 500 (an exception from input); every JSON
// body is valid UTF-8 JSON, every HTML body valid UTF-8; no header carries a line break; a
// redirect stays on this site.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "check.hpp"
#include "memory_storage.hpp"
#include "registry.hpp"
#include "router.hpp"
#include "senet/site.hpp"
#include "static_dir.hpp"

using namespace senet;
using namespace senet::server;
using senet::fuzz::check;

namespace {

struct NullPeer : Peer {
    void send(std::shared_ptr<const std::string>) override {}
};

/// Keeps the computer's tasks and never runs them (the router does not wait for them).
struct IdleScheduler : Scheduler {
    std::vector<std::function<void()>> tasks;
    void after(std::chrono::milliseconds, std::function<void()> fn) override { tasks.push_back(std::move(fn)); }
};

const site::Site& theSite() {
    static const site::Site site(SENET_WEB_ROOT, "0.0.0-fuzz", "fuzz");
    return site;
}

void replaceAll(std::string& s, std::string_view from, const std::string& to) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
}

/// One request of the input.
Request readRequest(std::string_view text) {
    Request r;
    const std::size_t headEnd = text.find("\n\n");
    std::string_view head = text.substr(0, headEnd);
    if (headEnd != std::string_view::npos) r.body = std::string(text.substr(headEnd + 2));
    const std::size_t nl = head.find('\n');
    const std::string_view first = head.substr(0, nl);
    const std::size_t sp = first.find(' ');
    r.method = std::string(first.substr(0, sp));
    if (sp != std::string_view::npos) r.target = std::string(first.substr(sp + 1));
    head = nl == std::string_view::npos ? std::string_view() : head.substr(nl + 1);
    while (!head.empty()) {
        const std::size_t end = head.find('\n');
        const std::string_view line = head.substr(0, end);
        head = end == std::string_view::npos ? std::string_view() : head.substr(end + 1);
        if (line.size() < 3 || line[1] != ':') continue;
        std::string value(line.substr(line[2] == ' ' ? 3 : 2));
        if (line[0] == 'l') r.acceptLanguage = value;
        if (line[0] == 'e') r.acceptEncoding = value;
        if (line[0] == 'c') r.contentType = value;
    }
    return r;
}

void checkResponse(const Request& q, const Response& r) {
    const std::string what = q.method + " " + q.target.substr(0, 200);
    if (r.status == 500) senet::fuzz::fail("the router answered 500 (an exception from input)", what + "\n" + r.body);
    check(r.status >= 200 && r.status <= 599, "status out of range", what);
    for (const auto& [name, value] : r.headers) {
        check(name.find_first_of("\r\n:") == std::string::npos && value.find_first_of("\r\n") == std::string::npos &&
                  value.find('\0') == std::string::npos,
              "a header with a line break", name + ": " + value);
        if (name == "Location") check(value.starts_with("/") && !value.starts_with("//"), "a redirect off the site", value);
    }
    std::string body(r.content());
    std::string encoding;
    for (const auto& [name, value] : r.headers)
        if (name == "Content-Encoding") encoding = value;
    if (!encoding.empty()) {
        check(encoding == "gzip" || encoding == "br", "an unknown Content-Encoding", encoding);
        auto plain = encoding == "gzip" ? gunzip(body) : brotliDecompress(body);
        check(plain.has_value(), "a compressed answer that does not decompress", what);
        body = *plain;
    }
    if (r.contentType.starts_with("application/json")) senet::fuzz::parseJson(body, "JSON body of " + what);
    if (r.contentType.starts_with("text/html")) check(senet::fuzz::validUtf8(body), "HTML body is not UTF-8", what);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::filesystem::path webRoot = senet::fuzz::staticWebRoot();
    const site::Site& site = theSite();
    MemoryStorage storage;
    Metrics metrics;
    IdleScheduler scheduler;
    Config config;
    config.webRoot = webRoot;
    config.grace = std::chrono::seconds(0);
    Registry registry(storage, metrics, scheduler, config);
    Router router(registry, site, metrics, config);

    // {A}: a friend game waiting for its second seat; {B}: a finished local game.
    const Created a = registry.create(CreateRequest{RulesetId::Standard, Opponent::Friend, 0, ""});
    const Created b = registry.create(CreateRequest{RulesetId::Jequier, Opponent::Local, 0, ""});
    {
        auto room = registry.find(b.id).room;
        auto peer = std::make_shared<NullPeer>();
        room->attach(peer.get(), peer);
        room->handle(peer.get(), protocol::Hello{b.secret, std::nullopt}, std::chrono::steady_clock::now());
        room->handle(peer.get(), protocol::Resign{}, std::chrono::steady_clock::now());
        room->detach(peer.get());
    }
    std::string created = a.id;

    std::string_view input(reinterpret_cast<const char*>(data), size);
    for (int i = 0; i < 4 && !input.empty(); ++i) {
        const std::size_t sep = input.find("\n---\n");
        Request q = readRequest(input.substr(0, sep));
        input = sep == std::string_view::npos ? std::string_view() : input.substr(sep + 5);
        for (std::string* s : {&q.target, &q.body}) {
            replaceAll(*s, "{A}", a.id);
            replaceAll(*s, "{I}", a.inviteToken);
            replaceAll(*s, "{B}", b.id);
            replaceAll(*s, "{C}", created);
        }
        const Response r = router.handle(q);
        checkResponse(q, r);
        if (r.status == 201) {
            const auto j = senet::fuzz::parseJson(r.body, "created game");
            check(j.contains("game") && j["game"].is_string() && j.contains("secret"), "a 201 without game and secret", r.body);
            created = j["game"];
        }
    }
    return 0;
}
