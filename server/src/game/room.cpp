#include "room.hpp"

#include <nlohmann/json.hpp>

#include "senet/fairness.hpp"
#include "senet/record.hpp"

#include "config.hpp"
#include "invite.hpp"
#include "json_text.hpp"
#include "log_limit.hpp"
#include "metrics.hpp"

namespace senet::server {

using nlohmann::json;

namespace {

std::uint64_t seedFrom(const std::string& id) {
    std::uint64_t s = 0;
    for (unsigned char c : fairness::sha256(id)) s = (s << 8) | c;
    return s;
}

}  // namespace

Room::Room(Services& services, GameRow row, Game game, std::int64_t ply, std::int64_t throwIndex)
    : services_(services),
      row_(std::move(row)),
      game_(std::move(game)),
      ply_(ply),
      throwIndex_(throwIndex),
      audience_(services_.clock, [this](std::chrono::milliseconds delay) { scheduleWatchersFlush(delay); }),
      lastAction_(services_.clock.now()),
      rng_(seedFrom(row_.id)),
      commitment_(fairness::commitment(row_.serverSeed)) {
    if (!row_.result.empty()) {
        json r = json::parse(row_.result, nullptr, false);
        if (r.is_object()) {
            // The phrase counts stored with a friend game's result are not part of the state.
            if (const auto c = r.find("phrases"); c != r.end()) {
                if (c->is_array() && c->size() == 2 && (*c)[0].is_number_unsigned() && (*c)[1].is_number_unsigned())
                    phraseCounts_ = {(*c)[0].get<std::int64_t>(), (*c)[1].get<std::int64_t>()};
                r.erase("phrases");
            }
            // So are the bot marks of a lobby game with a program in a seat.
            if (const auto b = r.find("bots"); b != r.end()) {
                if (b->is_array() && b->size() == 2 && (*b)[0].is_boolean() && (*b)[1].is_boolean())
                    bots_ = {(*b)[0].get<bool>(), (*b)[1].get<bool>()};
                r.erase("bots");
            }
            resultText_ = jsonText(r);
        } else if (!r.is_discarded()) {
            resultText_ = jsonText(r);
        }
    }
    // A lobby game's guests, kept with the game by a shared store (setGuestNames at the instance that paired it).
    if (!row_.guests.empty()) {
        const json g = json::parse(row_.guests, nullptr, false);
        const auto pairOf = [&](const char* key, auto is) -> const json* {
            const auto it = g.is_object() ? g.find(key) : g.end();
            if (it == g.end() || !it->is_array() || it->size() != 2 || !is((*it)[0]) || !is((*it)[1])) return nullptr;
            return &*it;
        };
        if (const json* n = pairOf("names", [](const json& v) { return v.is_string() && v.get_ref<const std::string&>().size() <= 100; }))
            guestNames_ = {(*n)[0].get<std::string>(), (*n)[1].get<std::string>()};
        if (const json* b = pairOf("bots", [](const json& v) { return v.is_boolean(); })) bots_ = {(*b)[0].get<bool>(), (*b)[1].get<bool>()};
        if (g.is_object() && g.contains("abortAt") && g["abortAt"].is_number_integer()) abortAtMs_ = g["abortAt"].get<std::int64_t>();
    }
    if (!overLocked()) services_.metrics.gamesRunning.fetch_add(1);
}

std::variant<std::shared_ptr<Room>, std::string> Room::restore(Services& services, GameRow row,
                                                                 const std::vector<ActionRow>& actions) {
    const auto id = rulesetByKey(row.ruleset);
    if (!id) return "unknown ruleset " + row.ruleset;
    Game game(*id);
    std::vector<Played> played;
    std::vector<TakeBackMark> takebacks;
    std::set<std::int64_t> hinted;
    for (std::size_t i = 0; i < actions.size(); ++i) {
        const ActionRow& a = actions[i];
        const std::string where = "action " + std::to_string(i) + ": ";
        if (a.seq != static_cast<std::int64_t>(i)) return where + "sequence gap";
        if (a.kind == 't') {
            if (a.outcome < 0 || a.outcome >= game.rules().outcomeCount) return where + "bad outcome";
            if (game.phase() == Phase::Over) return where + "a throw after the end";
            const int seat = game.seatToAct();
            auto ev = game.applyThrow(throwOfOutcome(game.rules(), a.outcome));
            if (!ev) return where + ev.error().message;
            played.push_back(Played{'t', a.outcome, "", seat});
        } else if (a.kind == 'm') {
            if (game.phase() != Phase::Move) return where + "a move without a pending throw";
            const int seat = game.seatToAct();
            auto m = parseMove(game.position(), game.moveThrowValue(), a.move);
            if (!m) return where + m.error().message;
            if (a.outcome != 0 && a.outcome != 1) return where + "a bad hint mark";
            if (a.outcome == 1) hinted.insert(static_cast<std::int64_t>(game.record().plies.size()));  // played after a hint
            auto ok = game.applyMove(*m);
            if (!ok) return where + ok.error().message;
            played.push_back(Played{'m', a.outcome, formatMove(ok->move), seat});
        } else if (a.kind == 'b') {
            // A take-back (room_takeback.cpp): the last `outcome` actions of the game as it stood go.
            if (a.outcome < 1 || static_cast<std::size_t>(a.outcome) > played.size()) return where + "a take-back of more than was played";
            const std::size_t pliesBefore = game.record().plies.size();
            played.resize(played.size() - static_cast<std::size_t>(a.outcome));
            auto back = replayPlayed(*id, played);
            if (auto* why = std::get_if<std::string>(&back)) return where + *why;
            game = std::move(std::get<Game>(back));
            const std::size_t plies = game.record().plies.size();
            takebacks.push_back({static_cast<std::int64_t>(plies), static_cast<std::int64_t>(pliesBefore - plies)});
            // Hint marks stay across take-backs, as in the room (room_takeback.cpp).
        } else {
            return where + "unknown action kind";
        }
    }
    auto room = std::make_shared<Room>(services, std::move(row), std::move(game), static_cast<std::int64_t>(actions.size()), 0);
    room->played_ = std::move(played);
    room->takebacks_ = std::move(takebacks);
    room->hinted_ = std::move(hinted);
    room->noteReplayed();
    if (room->game_.phase() == Phase::Over && !room->overLocked()) {
        // Stopped between the last move and storing the result (an older version stored them
        // apart): store the board's result now; until that succeeds the game is not served.
        const Ending ending = room->endingOf(room->game_, std::nullopt, "bear-off");
        try {
            services.storage.finishGame(room->row_.id, ending.stored);
        } catch (const std::exception& e) {
            return std::string("the result could not be stored: ") + e.what();
        }
        Events events;
        room->commitEnding(ending, events);
    }
    return room;
}

bool Room::over() const {
    Guard lock(*this);
    return overLocked();
}

bool Room::idleFor(std::chrono::milliseconds idle) const {
    Guard lock(*this);
    return !overLocked() && !pending_ && services_.clock.now() - lastAction_ > idle;
}

bool Room::unloadable(std::chrono::milliseconds quiet) const {
    Guard lock(*this);
    return audience_.empty() && !computerScheduled_ && !pending_ && services_.clock.now() - lastAction_ > quiet;
}

Room::~Room() {
    if (!overLocked()) services_.metrics.gamesRunning.fetch_sub(1);  // unloaded before its end
}

bool Room::waiting() const {
    return row_.opponent == Opponent::Friend && (row_.seatHashes[0].empty() || row_.seatHashes[1].empty());
}

bool Room::seedsPending() const { return throwIndex_ == 0 && (!row_.clientSeeds[0] || !row_.clientSeeds[1]); }

bool Room::online(int seat) const { return isComputer(seat) || audience_.connected(seat); }

std::optional<std::int64_t> Room::playerOfSeat(int seat) const {
    if (game_.phase() == Phase::Opening) return std::nullopt;
    return number(*game_.playerOf(seat));
}

StateFields Room::fields() const {
    return StateFields{game_,        row_,      commitment_,       ply_,
                       throwIndex_,  lastThrowSeat_, overLocked(), waiting(),
                       !overLocked() && !waiting() && seedsPending(), {online(0), online(1)},
                       rematchOffered_, resultText_, services_.config.grace.count(),
                       {guestNames_[0], guestNames_[1]},
                       bots_,
                       !waiting() && !seedsPending() && canTakeBack()};
}

json Room::state() const {
    std::string text;
    writeStateJson(text, fields());
    return json::parse(text);
}

void Room::sendSnapshot(PeerState& p) { audience_.sendSnapshot(p, frames_.snapshot(p.seats, fields())); }

void Room::broadcast(const Events& events) { audience_.sendToSynced(frames_.events(events, ply_, fields())); }

void Room::error(PeerState& p, std::string_view code, std::string_view message) {
    services_.metrics.rejected.fetch_add(1, std::memory_order_relaxed);
    audience_.send(p, protocol::errorMessage(code, message, ply_));
}

void Room::attach(Peer* key, std::weak_ptr<Peer> peer) {
    Guard lock(*this);
    ++uses_;
    if (moved_) {
        // Found just before it left: the client goes to the game's new owner.
        if (audience_.refuse(peer, kMovedCloseCode, "moved")) services_.metrics.movedCloses.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    audience_.attach(key, std::move(peer));
}

void Room::detach(Peer* key) {
    Guard lock(*this);
    Events events;
    if (!audience_.detach(key, events)) return;
    // Its messages waiting for a pending write go with it (the key may be reused).
    std::erase_if(deferred_, [key](const Deferred& d) { return d.key == key; });
    withdrawOffersOfAbsent(events);
    if (!events.empty()) broadcast(events);
}

void Room::withdrawOffersOfAbsent(Events& events) {
    if (!overLocked() || !row_.rematch.empty()) return;
    for (int seat = 0; seat < 2; ++seat) {
        if (!rematchOffered_[seat] || isComputer(seat) || audience_.connected(seat)) continue;
        // Its maker left: accepting it now would start a game against nobody.
        rematchOffered_[seat] = false;
        frames_.changed();
        events.add().str("e", "rematch-withdrawn").num("seat", seat);
    }
}

void Room::scheduleWatchersFlush(std::chrono::milliseconds delay) {
    services_.scheduler.afterUncounted(delay, [weak = weak_from_this()] {
        if (auto room = weak.lock()) room->flushWatchers();
    });
}

void Room::flushWatchers() {
    Guard lock(*this);
    if (!moved_) audience_.flushWatchers();  // else its connections are being closed with "moved"
}

void Room::receive(Peer* key, std::string_view frame, std::chrono::steady_clock::time_point received) {
    auto parsed = protocol::parse(frame);
    if (auto* e = std::get_if<protocol::ParseError>(&parsed)) return reject(key, *e);
    handle(key, std::get<protocol::ClientMessage>(parsed), received);
}

void Room::setGuestNames(std::array<std::string, 2> names, std::array<bool, 2> bots, std::int64_t abortAtMs) {
    Guard lock(*this);
    json guests{{"names", names}, {"bots", bots}};
    if (abortAtMs > 0) guests["abortAt"] = abortAtMs;
    services_.storage.setGuests(row_.id, jsonText(guests));
    guestNames_ = std::move(names);
    bots_ = bots;
    abortAtMs_ = abortAtMs;
    frames_.changed();
    armAbort();
}

void Room::armAbort() {
    if (abortAtMs_ <= 0 || abortArmed_ || overLocked() || throwIndex_ > 0) return;
    const auto nowMs =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    abortArmed_ = true;
    services_.scheduler.afterUncounted(std::chrono::milliseconds(std::max<std::int64_t>(0, abortAtMs_ - nowMs)),
                                       [weak = weak_from_this()] {
                                           const auto room = weak.lock();
                                           if (!room) return;
                                           {
                                               Guard lock(*room);
                                               room->abortArmed_ = false;
                                           }
                                           room->abortUnstarted();  // nothing when it has started meanwhile
                                       });
}

bool Room::started() const {
    Guard lock(*this);
    return throwIndex_ > 0;
}

bool Room::seatCame(int seat) const {
    Guard lock(*this);
    return seat >= 0 && seat < 2 && row_.clientSeeds[seat].has_value();
}

void Room::reject(Peer* key, const protocol::ParseError& e) {
    Guard lock(*this);
    if (PeerState* p = audience_.find(key)) error(*p, e.code, e.message);
}

void Room::onHello(PeerState& p, const protocol::Hello& h) {
    Events events;
    unsigned seats = 0;
    bool badSecret = false;
    if (h.secret) {
        const std::string hash = fairness::sha256Hex(*h.secret);
        for (int seat = 0; seat < 2; ++seat)
            if (!row_.seatHashes[seat].empty() && fairness::constantTimeEqual(hash, row_.seatHashes[seat]))
                seats |= 1u << seat;
        badSecret = seats == 0;
    }
    // Its answer is the snapshot below, which holds this hello's events.
    audience_.hello(p, seats, events);
    if (seats) {
        // A seat's seed is fixed by its first seated hello: the seed it carries, or one the
        // server draws for it. Both are fixed before the first throw (seedsPending).
        if (h.clientSeed) p.seed = *h.clientSeed;
        else if (!p.seed) p.seed = fairness::toHex(fairness::randomBytes(16));
        const bool pendingBefore = seedsPending();
        if (fixSeeds(p, events) && pendingBefore && !seedsPending()) scheduleComputer();
    }
    if (badSecret) error(p, "bad-secret", "this secret holds no seat of this game; you are watching");
    if (!events.empty()) broadcast(events);
    audience_.sendWatchers(p);  // before the snapshot: the count goes with every hello
    sendSnapshot(p);
}

bool Room::fixSeeds(PeerState& p, Events& events) {
    if (throwIndex_ > 0 || overLocked() || !p.seed) return true;  // frozen at the first throw
    for (int seat = 0; seat < 2; ++seat) {
        if (!(p.seats & (1u << seat)) || row_.clientSeeds[seat]) continue;
        const std::string seed = *p.seed;
        if (!stored(&p, "the client seed", [&] { services_.storage.setClientSeed(row_.id, seat, seed); })) return false;
        row_.clientSeeds[seat] = seed;
        frames_.changed();  // the state changed, even if a later write fails and nothing is broadcast
        events.add().str("clientSeed", seed).str("e", "seed").num("seat", seat);
    }
    return true;
}

bool Room::stored(PeerState* p, std::string_view what, const std::function<void()>& write) {
    try {
        write();
        return true;
    } catch (const LeaseLost& e) {
        // Another instance owns the game now: nothing was written; the room leaves (no `storage`
        // error: the client reconnects to the new owner and carries on).
        onLeaseLost(what, e);
        return false;
    } catch (const std::exception& e) {
        // Logged for the operator (a full disk), a few lines per 10 s, with the details (they
        // name the database file); the client gets `storage` and no details.
        logLimited("storage", "game " + row_.id + ": " + std::string(what) + " could not be saved: " + e.what());
        if (p) error(*p, "storage", std::string(what) + " could not be saved; nothing changed, try again");
        return false;
    }
}

int Room::actingSeat(const PeerState& p) const {
    if (p.seats == 3u) return game_.phase() == Phase::Over ? 0 : game_.seatToAct();
    return (p.seats & 1u) ? 0 : 1;
}


JoinOutcome Room::join(const std::string& inviteToken) {
    Guard lock(*this);
    JoinOutcome out;
    if (row_.opponent != Opponent::Friend || row_.inviteHash.empty()) return out;
    if (!fairness::constantTimeEqual(fairness::sha256Hex(inviteToken), row_.inviteHash)) {
        out.status = JoinStatus::BadInvite;
        return out;
    }
    if (overLocked()) {
        out.status = JoinStatus::Over;  // e.g. the creator resigned while waiting
        return out;
    }
    // The free seat: the creator may hold either.
    const int seat = row_.seatHashes[0].empty() ? 0 : row_.seatHashes[1].empty() ? 1 : -1;
    if (seat < 0) return out;
    const std::string secret = fairness::randomToken(32);
    const std::string hash = fairness::sha256Hex(secret);
    // Throws StorageError before anything changed; false when another join took it first.
    bool taken = false;
    try {
        taken = services_.storage.takeSeat(row_.id, seat, hash);
    } catch (const LeaseLost& e) {
        onLeaseLost("the seat", e);  // the join is answered 503: the client tries again, at the new owner
        throw;
    }
    if (!taken) return out;
    row_.seatHashes[seat] = hash;
    out.status = JoinStatus::Joined;
    out.seat = seat;
    out.secret = secret;
    out.commitment = commitment_;
    audience_.seatTaken(seat);
    Events events;
    events.add().str("e", "joined").num("seat", seat);
    broadcast(events);
    return out;
}

InviteOutcome Room::invite(const std::string& seatSecret) const {
    Guard lock(*this);
    InviteOutcome out;
    const std::string hash = fairness::sha256Hex(seatSecret);
    bool seated = false;
    for (int seat = 0; seat < 2; ++seat)
        if (!row_.seatHashes[seat].empty() && seatKindOf(row_.seatHashes[seat]) == SeatKind::Human &&
            fairness::constantTimeEqual(hash, row_.seatHashes[seat]))
            seated = true;
    if (!seated) return out;  // BadSecret
    if (row_.opponent != Opponent::Friend || row_.inviteHash.empty()) {
        out.status = InviteStatus::NoInvite;
    } else if (overLocked()) {
        out.status = InviteStatus::Over;
    } else if (!waiting()) {
        out.status = InviteStatus::Full;  // the friend holds the other seat (so this is the creator's, or theirs)
    } else {
        const std::string token = deriveInviteToken(seatSecret, row_.id);
        out.status = fairness::constantTimeEqual(fairness::sha256Hex(token), row_.inviteHash) ? InviteStatus::Found
                                                                                                : InviteStatus::NoInvite;
        if (out.status == InviteStatus::Found) out.token = token;
    }
    return out;
}

json Room::summary() const {
    Guard lock(*this);
    json s = state();
    json out;
    for (const char* k : {"game", "ruleset", "opponent", "level", "phase", "ply", "seats", "result", "rematch", "rematchOf"})
        out[k] = s[k];
    out["commitment"] = s["fairness"]["commitment"];
    out["watchers"] = audience_.watchers();
    return out;
}

std::optional<std::string> Room::verifiableRecord() const {
    Guard lock(*this);
    if (!overLocked()) return std::nullopt;
    json j = json::parse(recordToJson(game_.record(), game_.outcome()));
    j["game"] = row_.id;
    j["ending"] = json::parse(resultText_);
    j["fairness"] = {{"version", 1},
                     {"serverSeed", fairness::toHex(row_.serverSeed)},
                     {"commitment", fairness::commitment(row_.serverSeed)},
                     {"clientSeeds", {row_.clientSeeds[0].value_or(""), row_.clientSeeds[1].value_or("")}},
                     {"throws", throwIndex_}};
    if (row_.opponent == Opponent::Friend) j["phrases"] = phraseCounts_;  // counts per seat, never their words
    if (bots_[0] || bots_[1]) j["bots"] = {bots_[0], bots_[1]};           // which seats a program played
    if (!takebacks_.empty()) {
        json marks = json::array();
        for (const TakeBackMark& t : takebacks_) marks.push_back({{"plies", t.plies}, {"undone", t.undone}});
        j["takebacks"] = std::move(marks);
    }
    // The plies (0-based indices into `plies`) played after a hint was shown; none: no member.
    json hints = json::array();
    for (const std::int64_t i : hinted_)
        if (i < static_cast<std::int64_t>(game_.record().plies.size())) hints.push_back(i);
    if (!hints.empty()) j["hints"] = std::move(hints);
    return jsonText(j);
}


}  // namespace senet::server
