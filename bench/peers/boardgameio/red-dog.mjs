// Red Dog as a boardgame.io game, played the way Parlour's rules/games/red_dog.cpp
// plays it with its default options (five cards, an ante of 1 when a pot is
// formed, deal after deal with no pause): the bench's peer (README.md beside this).
//
// Each deal: the seats from the dealer's left ante into a new pot if the pot is
// empty; everyone gets five cards from a freshly shuffled pack; then each in turn
// bets from 1 chip up to the pot (and his chips) that his hand holds a card of the
// same suit and a higher rank (ace high) than the next card turned. A winner is
// paid from the pot and shows his lowest beating card; a loser's bet goes into the
// pot. An emptied pot is formed again at once. After the last bet the deal is
// settled and the next deal starts inside the same move (Parlour's bench runs with
// --deal-pause-ms 0), so every move is one bet.

const RANKS = '23456789TJQKA';  // ace high: the index is the rank's value
const SUITS = 'CDHS';
const PACK = [...SUITS].flatMap((suit) => [...RANKS].map((rank) => rank + suit));

const rankValue = (card) => RANKS.indexOf(card[0]);

// The lowest card of `hand` that beats `target`: same suit, higher rank.
function lowestBeating(hand, target) {
  let best = null;
  for (const card of hand) {
    if (card[1] !== target[1] || rankValue(card) <= rankValue(target)) continue;
    if (best === null || rankValue(card) < rankValue(best)) best = card;
  }
  return best;
}

// The most `seat` may bet now: the pot caps a bet, and so do his chips.
export const mostBet = (G, seat) => Math.min(G.pot, G.chips[seat]);

// Seats in play order for a deal: from the dealer's left, the dealer last.
function playOrderFrom(dealer, seats) {
  return Array.from({ length: seats }, (_, i) => (dealer + 1 + i) % seats);
}

function formNewPot(G) {
  for (const seat of playOrderFrom(G.dealer, G.seats.length)) {
    if (G.chips[seat] < G.ante) continue;  // sits this pot out
    G.chips[seat] -= G.ante;
    G.pot += G.ante;
    G.seats[seat].net -= G.ante;
  }
}

function beginDeal(G, random) {
  G.deals += 1;
  G.turned = [];
  for (const seat of G.seats) Object.assign(seat, { status: 'sitting_out', bet: null, target: null, shown: null, net: 0 });
  if (G.pot === 0) formNewPot(G);
  G.order = playOrderFrom(G.dealer, G.seats.length).filter((seat) => G.chips[seat] >= 1);
  G.deck = random.Shuffle(PACK);
  G.hands = G.seats.map(() => []);
  for (let round = 0; round < G.handSize; round++)
    for (const seat of G.order) G.hands[seat].push(G.deck.pop());
  for (const seat of G.order) G.seats[seat].status = 'waiting';
  G.turn = 0;
}

function settleDeal(G) {
  G.result = {
    deal: G.deals,
    dealer: G.dealer,
    pot: G.pot,
    seats: G.seats.map((s, seat) => ({ seat, chips: s.net, outcome: s.status, bet: s.bet, target: s.target, shown: s.shown })),
  };
  G.dealer = (G.dealer + 1) % G.seats.length;
}

// The move: validated (boardgame.io has already checked that it is this
// player's turn), applied, and the turn passed to the next bettor.
function bet({ G, playerID, random }, amount) {
  const seat = Number(playerID);
  if (!Number.isInteger(amount) || amount < 1 || amount > mostBet(G, seat)) return INVALID_MOVE;
  const target = G.deck.pop();
  G.turned.push(target);
  const s = G.seats[seat];
  s.bet = amount;
  s.target = target;
  const beating = lowestBeating(G.hands[seat], target);
  if (beating) {
    s.status = 'won';
    s.shown = beating;
    G.pot -= amount;
    G.chips[seat] += amount;
    s.net += amount;
  } else {
    s.status = 'lost';
    G.pot += amount;
    G.chips[seat] -= amount;
    s.net -= amount;
  }
  if (G.pot === 0) formNewPot(G);
  // The next bettor who can still bet; none left settles the deal and deals again.
  do G.turn += 1;
  while (G.turn < G.order.length && mostBet(G, G.order[G.turn]) < 1);
  if (G.turn >= G.order.length) {
    settleDeal(G);
    beginDeal(G, random);
  }
}

// boardgame.io's marker for a refused move (its value in boardgame.io/core).
const INVALID_MOVE = 'INVALID_MOVE';

const bettorPosition = ({ G, ctx }) => ctx.playOrder.indexOf(String(G.order[G.turn]));

export const RedDog = {
  name: 'red-dog',
  minPlayers: 2,
  maxPlayers: 10,
  setup: ({ ctx, random }, setupData = {}) => {
    const G = {
      ante: setupData.ante ?? 1,
      handSize: setupData.handSize ?? 5,
      chips: Array.from({ length: ctx.numPlayers }, () => setupData.startingChips ?? 1_000_000_000),
      seats: Array.from({ length: ctx.numPlayers }, () => ({})),
      pot: 0,
      deals: 0,
      dealer: 0,
      turned: [],
      result: null,
    };
    beginDeal(G, random);
    return G;
  },
  turn: {
    minMoves: 1,
    maxMoves: 1,  // one bet, then the turn passes
    order: { first: bettorPosition, next: bettorPosition },
  },
  moves: {
    // client: false: only the server may run it (the client cannot: it does not see the deck).
    bet: { move: bet, client: false },
  },
  // Each player sees his own hand; of the others' only how many cards they hold
  // (shown cards and turned cards are public), and of the deck only its size.
  playerView: ({ G, playerID }) => ({
    ...G,
    deck: G.deck.length,
    hands: G.hands.map((hand, seat) => (String(seat) === playerID ? hand : hand.length)),
  }),
};
