#include "server/exchange.h"

namespace upin::app {

// Out of line, so that the handler's vtable and moc's code have one home.
ExchangeHandler::ExchangeHandler(Exchange& exchange) : m_exchange(exchange) {}

ExchangeHandler::~ExchangeHandler() = default;

} // namespace upin::app
