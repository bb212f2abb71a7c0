// @ts-check
// "How to play": each game's rules in a few lines, the keyboard shortcuts, and
// a one-line hint for every action that is not obvious from its name. Written
// from the rule sources the server follows (an encyclopedia of card games, an
// article on Rabouge, a Rummy-family rules site) and the resolutions in the project's rules
// notes; the server stays the judge of what is legal.

import { el } from './dom.js';
import { t } from './i18n.js';

const RUMMY_BASICS = [
  t('A meld is a set (three or four cards of one rank) or a run (three or more in sequence in one suit).'),
  t('On your turn: draw one card (the stock or the top of the discard pile), meld or lay off if you like, then discard one card.'),
  t('Laying off adds cards from your hand to a meld already on the table.'),
];

const GAMES = {
  red_dog: [t('Everyone antes into the pot and holds a hand of cards.'),
    t('On your turn bet (from the minimum up to the pot) that you hold a card of the same suit and higher rank than the next card turned.'),
    t('Win and the bet comes out of the pot; lose and it goes in. Aces are high.')],
  red_and_black: [t('Name red or black and bet; the dealer banks every bet with their own chips.'),
    t('Five cards are dealt face up to each player: most in your colour wins, all five doubles the win.'),
    t('Otherwise the dealer collects your bet.')],
  ranter_go_round: [t('Everyone starts with counters and one card, kings high and aces low.'),
    t('In turn keep your card (stand) or exchange it with the player on your left; a king cannot be taken.'),
    t('The lowest card shown loses a counter into the pool; the last player with counters takes the pool.')],
  rams: [t('Thirty-two cards; five each, a widow of five, and the next card turned for trump.'),
    t('In turn pass, play, or take the widow in place of your hand. Whoever plays must take tricks.'),
    t('Each of the five tricks takes a fifth of the pool; a player who plays and takes no trick pays into the next pool.'),
    t('General Rams: announce that you will take all five tricks: win and everyone pays you and you take the pool; lose and you pay everyone and double the pool.'),
    t('If everyone else passed, the last player must play or pay the dealer.'),
    t('Follow suit if you can, else trump; always head the trick (play higher) if you can.')],
  rounce: [t('Like Rams with a full pack: five cards each, a widow of six, the next card turned for trump.'),
    t('Pass, play or take the widow (then discard down to five); each trick takes a fifth of the pool.'),
    t('A player who plays and takes no trick pays into the next pool. The winner of the first trick leads a trump.')],
  reversi: [t('A forerunner of Hearts: each trick you take costs you chips into the pool.'),
    t('Follow suit if you can. Take no tricks to pay nothing, or take every trick (a reversis) and the others pay you.')],
  rummy: [...RUMMY_BASICS,
    t('Going out: meld or lay off your last card (or discard it). Opponents pay the count of the cards left in their hands.'),
    t('Going rummy: going out in one turn without having melded before doubles the payment.')],
  michigan_rummy: [...RUMMY_BASICS,
    t('The discard pile is spread: take any card of it, together with every card above it, if you meld the deepest card at once.'),
    t('Melded cards score for you, cards left in hand count against you; the first to 500 wins the game.')],
  five_hundred_rummy: [...RUMMY_BASICS,
    t('The discard pile is spread: you may take any card with all the cards above it, but must meld that card at once.'),
    t('Each card you meld scores for you, each card left in your hand counts against you; 500 points wins the game.')],
  persian_rummy: [t('Four players in partnerships, 56 cards with four jokers (wild).'),
    ...RUMMY_BASICS.slice(1),
    t('Cards melded score for your side, cards left in hand count against it; going out earns a bonus.')],
  straight_rummy: [...RUMMY_BASICS,
    t('No lay-offs. Once the stock runs out the break begins; the lowest count left in hand wins, and the breaker pays more if beaten.')],
  skip_rummy: [...RUMMY_BASICS, t('Five cards each; only one meld or one lay-off per turn.')],
  round_the_corner_rummy: [...RUMMY_BASICS, t('An ace may be high or low, even in the middle (Q K A 2).'), t('Draw two cards a turn where the table says so.')],
  block_rummy: [...RUMMY_BASICS, t('Your last card must be a discard. When the stock is gone and a discard is refused, play stops and the lowest count wins.')],
  queen_city_rummy: [t('You meld only when you can go rummy: your whole hand in melds at once.'), RUMMY_BASICS[0], RUMMY_BASICS[1]],
  carousel: [t('Knock rummy with jokers: each turn draw up to three cards from the stock one at a time, or meld.'),
    t('Every meld and lay-off rebuilds the whole table: you may rearrange the melds already down, as long as every meld stays valid.'),
    t('After melding you cannot draw again: press Finish to end your turn.'),
    t('Knock when the count of your hand is five or less: the deal ends and the others pay their counts. 150 points wins the game.')],
  double_rummy: [...RUMMY_BASICS, t('Two packs and two jokers; a joker in a meld may be moved by the player who can replace it.')],
  java_rummy: [...RUMMY_BASICS, t('Deuces and jokers are wild. A player reaching 100 points against is out; the last one in takes the pool.')],
  rummy_poker: [...RUMMY_BASICS, t('Two packs and four jokers; straight flushes and long melds earn bonuses. 100 points wins.')],
  russian_bank: [t('Two players, a pack each. Build the eight centre piles up by suit from the ace; the layout piles down in alternating colours.'),
    t('Play from your stock first when you can, then your hand; when you cannot play, turn your hand card onto your discard pile.'),
    t('You may feed your opponent\'s discard pile and stock (same suit, one rank up or down).'),
    t('If your opponent breaks an order of play, call Stop: the turn passes to you. First to empty stock, hand and discards wins.')],
  royal_cassino: [t('Capture table cards with a card from your hand: a card of the same value, or cards that add up to it. Jacks count 11, queens 12, kings 13, aces 1 or 14.'),
    t('Build: put a hand card on table cards to make a total you hold a card to capture later. Trail: lay a card on the table.'),
    t('Most cards, most spades, big and little cassino, aces and sweeps score points.')],
  rabouge: [t('Everyone has a pack: a reserve stock, a supply, discard piles, and the starter piles in the middle.'),
    t('Play cards in sequence (any suit) onto the starter piles; start a new one with a card no pile takes.'),
    t('Empty your stock first to win: the others pay for each card left in theirs.')],
};

const SHORTCUTS = [
  ['D', t('draw from the stock')],
  ['S', t('sort your hand (suit, then rank)')],
  [t('Enter'), t('confirm the selected move')],
  [t('Esc'), t('clear the selection')],
  ['1–9', t('set a bet amount (then Enter)')],
  ['T', t('the text table: the table in words and the moves by number, for a screen reader or the keyboard alone')],
  ['?', t('show or hide this help')],
];

/**
 * The game's rules in a few lines, or a general note for a game without one here.
 * @param {string | undefined} gameId
 * @returns {string[]}
 */
export function gameRules(gameId) {
  return GAMES[/** @type {keyof typeof GAMES} */ (gameId)] || [t('Every move you may make is listed as a button under the table; the log says what happened.')];
}

/**
 * The "How to play" panel: the rules, how to act here, the keyboard shortcuts.
 * @param {string | undefined} gameId
 * @param {string} gameName
 */
export function helpPanel(gameId, gameName) {
  return el('section', { class: 'panel help-panel', 'data-zone': 'help', 'aria-label': t('How to play {game}', { game: gameName }) },
    el('h2', { class: 'panel-title', text: t('How to play {game}', { game: gameName }) }),
    el('ul', { class: 'help-rules' }, gameRules(gameId).map((line) => el('li', { text: line }))),
    el('p', { class: 'small', text: t('Select cards, then press the move (or click the pile or meld it goes to). Drag cards to arrange your hand or onto a pile or meld.') }),
    el('h3', { class: 'help-subtitle', text: t('Keyboard') }),
    el('dl', { class: 'help-keys' }, SHORTCUTS.map(([key, what]) => [el('dt', {}, el('kbd', { text: key })), el('dd', { text: what })])));
}

// One line on what a move does, for the moves whose name does not say it all.
/** @type {Record<string, string>} */
const ACTION_HINTS = {
  pass: t('Sit this deal out (or let the chance go by).'),
  play: t('Play this deal with your hand: each trick you take wins a share of the pool; none at all and you pay.'),
  take_widow: t('Put your hand aside and play with the widow instead.'),
  pay_dealer: t('Everyone else passed: pay the dealer instead of playing this deal.'),
  keep: t('Keep your hand as it is.'),
  exchange: t('Lay this card aside and take the turned trump card in its place.'),
  knock: t('End the deal now: your hand counts low enough; the others pay their counts.'),
  finish: t('End your turn (you have melded, so you draw no more this turn).'),
  withdraw: t('Drop out of this deal.'),
  call: t('Claim the discard: it could be laid off on a meld.'),
  decline: t('Leave the upcard and draw from the stock instead.'),
  take_all: t('Take the whole discard pile.'),
  go_rummy: t('Lay down your whole hand in one turn: the payment is doubled.'),
  go_down: t('Meld your whole hand and go out.'),
  stop: t('Your opponent broke the order of play: call Stop and take the turn.'),
  turn_stock: t('Turn the top card of your stock face up.'),
  turn_hand: t('Turn the next card of your hand face up.'),
  end_turn: t('End your turn.'),
  stand: t('Keep your card.'),
  trail: t('Lay the card on the table without capturing or building.'),
  layout: t('Rebuild the table this way (it changes only what is named).'),
};

/**
 * The hint for one `legal` entry, or null when its name says it all.
 * @param {import('../types/wire').LegalAction | null | undefined} entry
 * @returns {string | null}
 */
export function actionHint(entry) {
  if (!entry || typeof entry.type !== 'string') return null;
  if (entry.type === 'general') {
    return entry.widow
      ? t('General widow: take the widow, then announce you will take all five tricks.')
      : t('General Rams: announce you will take all five tricks with your own hand — win all, everyone pays you; lose one, you pay everyone.');
  }
  if (entry.type === 'draw' && entry.from === 'two_discards') return t('Take the top two cards of the discard pile.');
  if (entry.type === 'take' && Number.isInteger(entry.depth) && entry.depth > 0) return t('Take this card and every card above it; you must meld it at once.');
  if (entry.type === 'bet' && typeof entry.colour === 'string') return t('Bet that most of your five cards will be this colour.');
  if (entry.type === 'bet') return t('Bet that you hold a higher card of the same suit as the next card turned.');
  return ACTION_HINTS[entry.type] || null;
}
