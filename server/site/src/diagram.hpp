// The board diagram of the rules and variant pages: an inline, accessible SVG of the 30
// squares, the S-shaped path with arrows, the named houses and the starting pieces.
#pragma once

#include <string>

#include "senet/ruleset.hpp"
#include "senet/site_catalog.hpp"

namespace senet::site {

/// A `<figure>` holding the diagram of `r`'s board (role="img" with a <title> and a <desc> in
/// the catalog's language) and a legend of its houses. `id` prefixes the element ids, so two
/// diagrams may share a page. The SVG is always drawn left to right (dir="ltr"), also on a
/// right-to-left page. Never throws for a valid ruleset.
std::string boardDiagram(const Ruleset& r, const Catalog& c, const std::string& id);

}  // namespace senet::site
