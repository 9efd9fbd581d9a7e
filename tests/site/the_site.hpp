// The site the site tests read: the project's real web/ folder (SENET_WEB_ROOT, set by
// tests/site/CMakeLists.txt), loaded once per test process and shared by every test file.
#pragma once

#include "senet/site.hpp"

namespace senet::sitetest {

/// The site over SENET_WEB_ROOT, version "0.1.0", build "0123456789abcdef"; made at the first
/// call (throws what Site's constructor throws when the folder or a catalog is unreadable).
inline const site::Site& theSite() {
    static const site::Site site(SENET_WEB_ROOT, "0.1.0", "0123456789abcdef");
    return site;
}

}  // namespace senet::sitetest
