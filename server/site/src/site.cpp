// Placeholder renderer: replaced by the template-based site.
#include "senet/site.hpp"

namespace senet::site {

struct Site::Impl {
    std::vector<std::string> languages{"en", "nl", "fi", "it", "pl"};
    std::string version, commit;
};

Site::Site(std::filesystem::path, std::string version, std::string commit)
    : impl_(new Impl{{"en", "nl", "fi", "it", "pl"}, std::move(version), std::move(commit)}) {}
Site::~Site() { delete impl_; }

const std::vector<std::string>& Site::languages() const { return impl_->languages; }

std::string Site::negotiate(std::string_view) const { return "en"; }

std::optional<Page> Site::content(std::string_view path) const {
    for (const auto& l : impl_->languages)
        if (path == "/" + l + "/")
            return Page{200, "<!doctype html><html lang=\"" + l + "\"><title>Senet online</title><h1>Senet online</h1></html>"};
    return std::nullopt;
}

Page Site::play(std::string_view lang, std::string_view gameId, RulesetId) const {
    return Page{200, "<!doctype html><html lang=\"" + std::string(lang) + "\"><title>Senet</title><main data-game=\"" +
                         std::string(gameId) + "\"></main></html>"};
}

Page Site::error(std::string_view lang, ErrorKind kind) const {
    const int status = kind == ErrorKind::BadRequest ? 400 : kind == ErrorKind::GameExpired ? 410 : 404;
    return Page{status, "<!doctype html><html lang=\"" + std::string(lang) + "\"><title>Not found</title><p><a href=\"/\">Home</a></html>"};
}

}  // namespace senet::site
