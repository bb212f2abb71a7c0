// Rams (source 000, "RAMS"; rules/other.md §2), with "General Rams": 3–5 players,
// a 32-card pack, a pool fed by the dealer every deal and carried from deal to
// deal, five tricks each worth a fifth of the pool. The engine is shared with
// Rounce (rules/tricks/pool_trick.h); the choices below hold for both unless
// rules/games/rounce.h says otherwise.
//
// Choices where the sources leave room (rules/other.md §2 "Ambiguities", GAMES.md):
// - Rank A K Q J 10 9 8 7; option `old_ranking` gives K Q J A 10 9 8 7 in every suit.
// - Deal: the dealer puts 5 chips in the pool ("pool"). Five cards each from the
//   dealer's left in packets of 2 then 3 (option `packets` "3-2" for 3 then 2); the
//   widow is dealt face down as an extra hand after the dealer's in each round; the
//   next card is turned up for trump. Undealt cards are dead. The first dealer is drawn from the seed
//   and the deal passes left.
// - Declaring, in turn from the dealer's left, dealer last: "pass", "play" (with
//   the dealt hand), "take_widow" (the hand is laid aside dead; once per deal),
//   "general" (with "widow": false or true) on one's own turn, and for the forced
//   player only "pay_dealer". The player before the dealer, when all before him
//   passed, may not pass: he plays or pays the dealer 5 chips personally, which
//   ends the deal with the pool carried over. When exactly one other player plays,
//   the dealer may not pass. The dealer may take the widow like anyone else. The
//   view's `forced` names the player to declare who may not pass, and a log line
//   says so when his turn comes.
// - A dealer who plays may then "exchange" a card (laid aside dead) for the turned
//   trump, or "keep"; this comes after all declarations, also after a widow.
// - Play: the first player who declared play leads; active players only,
//   clockwise. Follow suit, else trump, and head the trick when able (an
//   under-trump is compulsory when void and unable to over-trump).
// - Chips: the pool at the first lead, P0, pays P0/5 (rounded down; the rest stays)
//   to the winner of each trick as it is taken. Each active player who took no
//   trick pays 5 into the (next) pool.
// - General Rams: announced on one's own declaring turn, with the dealt hand or
//   the widow. Everyone else plays: in turn from the announcer's left, those who
//   passed or had not declared choose "play" (pick up their hand) or "take_widow"
//   while it is there. The dealer keeps his exchange. The announcer leads. If he
//   wins all five tricks each other player pays him 5 and he takes the pool; play
//   stops at the first trick he loses, and he pays 5 to each other player and as
//   much again as the pool holds into it (the pool doubles and carries over). In
//   a General nothing is paid per trick and there is no no-trick payment.
// - Chips never overdraw a seat: whoever owes more pays what he has and the rest
//   is named under "unpaid" in the deal's result. A dealer who cannot put up his
//   5 chips does not deal: the deal passes to the next seat that can (the view
//   lists the seats passed over under "could_not_deal"), and he plays the deal as
//   a non-dealer; when nobody can deal, the game is over. Players with no chips
//   still play.
// - A player who leaves in the middle of a deal has his hand played out by the
//   table's bot and leaves at the next deal (the server's rule for every game,
//   docs/protocol.md "Leaving in the middle of a deal"), so the deal stands. A
//   seat that leaves the game mid-deal all the same (seat_left) voids it: the
//   cards are thrown in, chips already paid stand, and the pool carries over.
//   Below three players the game is over. It also ends after option `deals` deals (0 = no limit); the
//   pool left is shared out as GAMES.md says.
// - Views: own hand only; the widow, dead cards and passed hands are counts only;
//   the turned trump and the cards played are public.
#pragma once

#include "rules/registry.h"

namespace parlour::rules {

GameInfo rams_info();

}  // namespace parlour::rules
