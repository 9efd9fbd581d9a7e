// The compiled parts of Boost.Asio and Boost.Beast (BOOST_ASIO_SEPARATE_COMPILATION and
// BOOST_BEAST_SEPARATE_COMPILATION are defined for the server's targets): built once here.
#include <utility>  // Boost 1.74 with C++20: awaitable.hpp needs std::exchange
#include <boost/asio/impl/src.hpp>
#include <boost/beast/src.hpp>
