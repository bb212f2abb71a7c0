// Parlour's wire, as the browser client sends and reads it: a declaration file for
// the type checker (tsc --noEmit -p web-client), never served or loaded by a page.
//
// Written from PROTOCOL.md (version 1), docs/protocol.md and frames of a running
// server. Names are the wire's own (snake_case keys, message `type`s), so these can
// be checked against protocol/schema/parlour.schema.json. Where the client reads a
// part generically (a game's own view and result fields) the type says what the
// client relies on and leaves the rest open (`[key: string]: unknown`).

// -- common -------------------------------------------------------------------

/** A seat number at a table, 0 first. */
export type Seat = number;
/** A card, rank then suit ("TH", "JK"), "??" for a hidden one; Royal Cassino adds ranks E and W;
 *  a wild in a meld may be written "JK=8H". */
export type Card = string;
/** Unix milliseconds. */
export type UnixMs = number;
/** An ISO 8601 UTC time ("2026-11-27T17:00:00Z"). */
export type IsoTime = string;
/** A table id. */
export type TableId = string;
export type TableStatus = 'waiting' | 'playing' | 'finished';

/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every error code of PROTOCOL.md and docs/protocol.md. */
export type ErrorCode =
  | 'bad_request' | 'unauthorized' | 'forbidden' | 'not_found' | 'name_taken' | 'table_full'
  | 'not_your_turn' | 'illegal_action' | 'insufficient_chips' | 'rate_limited' | 'conflict' | 'internal'
  | 'invite_required' | 'registration_closed';

/** What every client-to-server frame carries. */
export interface RequestBase {
  type: string;
  /** Chosen by the client; the direct reply carries it back as `re`. */
  id?: number;
}

/** What every server-to-client frame carries. */
export interface ReplyBase {
  type: string;
  /** The `id` of the request this answers; absent on pushes. */
  re?: number;
}

/** `error` (PROTOCOL.md "Errors"): a refused request, or a push (no `re`), e.g. "signed out". */
export interface ErrorMessage extends ReplyBase {
  type: 'error';
  code: ErrorCode | string;
  message: string;
  /** `rate_limited` on chat: when the next line may go. */
  retry_after_ms?: number;
}

/** `ok` answers many requests; which fields it carries depends on the request. */
export interface OkReply extends ReplyBase {
  type: 'ok';
  seq?: number;
  table?: TableId;
  seat?: Seat;
  player?: string;
  action_id?: string;
  duplicate?: boolean;
  continued?: boolean;
  muted?: boolean;
}

// -- identity -------------------------------------------------------------------

/**
 * A protocol feature a sign-in may ask for (docs/protocol.md "Features"): 1–32 characters;
 * names the server does not know are ignored. Today there is one, `deltas`.
 */
export type Feature = 'deltas' | (string & {});

/** Fields every sign-in (`hello`, `recover`, `device_sign_in`, `passphrase_sign_in`) may add. */
export interface SignInFeatures {
  /**
   * At most 16. `"deltas"`: a `state` push carries only what the connection has not had
   * (docs/protocol.md "State"); without it every push is whole (PROTOCOL.md version 1).
   */
  features?: Feature[];
}

export interface HelloRequest extends SignInFeatures {
  name: string;
  token?: string;
  /** `--registration invite`: an unfinished table's invite code, for a new name. */
  invite?: string;
  /** `--registration invite`: a sign-up link's code, for a new name. */
  signup?: string;
}

export interface RecoverRequest extends SignInFeatures {
  name: string;
  code: string;
}

export interface DeviceSignInRequest extends SignInFeatures {
  code: string;
  label?: string;
}

export interface PassphraseSignInRequest extends SignInFeatures {
  name: string;
  passphrase: string;
  label?: string;
}

/** The answer to every sign-in. */
export interface Welcome extends ReplyBase {
  type: 'welcome';
  player: string;
  token: string;
  protocol: 1;
  chips: number;
  /** The features granted, of those asked for (the connection's first successful sign-in's). */
  features: Feature[];
  /** For a new name (or one registered before recovery codes), once. */
  recovery_code?: string;
  /** Several nodes: the node that answered. */
  node?: string;
}

export interface SignupLinkRequest {
  uses?: number;
  hours?: number;
}
export interface SignupLinkReply extends ReplyBase {
  type: 'signup_link';
  code: string;
  uses: number;
  expires_at: IsoTime;
}

export interface DeviceLinkReply extends ReplyBase {
  type: 'device_link';
  code: string;
  expires_at: IsoTime;
}

export interface Device {
  id: string;
  label: string;
  /** null for the first device. */
  created_at: IsoTime | null;
  last_seen: IsoTime | null;
}
export interface DevicesReply extends ReplyBase {
  type: 'devices';
  devices: Device[];
}

export interface RevokeDeviceRequest {
  device: string;
}
export interface SetPassphraseRequest {
  passphrase: string;
}

// -- catalogue and lobby ------------------------------------------------------------

/** An option's value: an int, a bool or one of an enum's choices (strings or numbers, e.g. a hand size). */
export type OptionValue = number | boolean | string;

export interface GameOption {
  name: string;
  type: 'int' | 'bool' | 'enum';
  default: OptionValue;
  choices?: OptionValue[];
  min?: number;
  max?: number;
  description: string;
}

export type LayoutName = 'betting' | 'tricks' | 'rummy' | 'building' | 'cassino' | (string & {});

export interface Game {
  id: string;
  name: string;
  aliases: string[];
  min_players: number;
  max_players: number;
  summary: string;
  source: string;
  options: GameOption[];
  layout: LayoutName;
  seats_change_between_deals?: boolean;
}
export interface GamesReply extends ReplyBase {
  type: 'games';
  games: Game[];
}

/** A table's turn clock (docs/protocol.md "Turn clock and away"). */
export interface Clock {
  seconds: number;
  bank: number;
  away_after: number;
}

export interface TableSeat {
  seat: Seat;
  player: string | null;
  bot: boolean;
  connected: boolean;
  away?: boolean;
}

export interface TableListing {
  table: TableId;
  game: string;
  options: Record<string, OptionValue>;
  host: string;
  status: TableStatus;
  seats: TableSeat[];
  spectators: number;
  clock?: Clock;
  late_join?: boolean;
  waiting?: number;
  /** In a `tables {"mine":true}` reply only. */
  private?: boolean;
}
/** `mine`: the open tables the sender holds a seat at or hosts, private ones included. */
export interface TablesRequest {
  mine?: boolean;
}
export interface TablesReply extends ReplyBase {
  type: 'tables';
  tables: TableListing[];
}

export interface CreateRequest {
  game: string;
  options?: Record<string, OptionValue>;
  seats?: number;
  seed?: number;
  deck?: Card[];
  private?: boolean;
  clock?: Partial<Clock>;
}
export interface Created extends ReplyBase {
  type: 'created';
  table: TableId;
  invite: string;
  /** A rematch: the finished table it follows. */
  rematch_of?: TableId;
  same_seed?: boolean;
  duplicate?: boolean;
}

/** `join` names the table or its invite. */
export type JoinRequest = ({ table: TableId } | { invite: string }) & { seat?: Seat };
export type WatchRequest = { table: TableId } | { invite: string };

export interface Joined extends ReplyBase {
  type: 'joined';
  table: TableId;
  seat: Seat;
}
export interface Watching extends ReplyBase {
  type: 'watching';
  table: TableId;
  /** Why a `join` made a spectator (a table in play). */
  message?: string;
  /** The place in line for a seat, 1 first. */
  waiting?: number;
}
export interface Left extends ReplyBase {
  type: 'left';
  table: TableId;
}

export interface TableRequest {
  table: TableId;
}
export interface BotRequest extends TableRequest {
  seat?: Seat;
  level?: number | null;
}
export interface UnseatRequest extends TableRequest {
  seat: Seat;
  replace?: 'open' | 'bot';
}
export interface RematchRequest extends TableRequest {
  same_seed?: boolean;
}
export interface BackReply extends ReplyBase {
  type: 'back';
  table: TableId;
}

// -- play -------------------------------------------------------------------------

/** `{"min","max"}`: where an action takes a number, the bounds; the client sends a number in range. */
export interface Range {
  min: number;
  max: number;
}

/** One entry of `legal`: sent back verbatim (numbers chosen within their ranges) in `act`. */
export interface LegalAction {
  type: string;
  amount?: number | Range;
  card?: Card;
  cards?: Card[];
  from?: string;
  to?: string;
  meld?: number | string;
  melds?: Card[][];
  [field: string]: unknown;
}

/** The action sent in `act`: a `legal` entry with every range replaced by a number. */
export interface Action {
  type: string;
  [field: string]: unknown;
}

export interface ActRequest extends TableRequest {
  action: Action;
  /** 1–64 printable ASCII characters, unique per player and table. */
  action_id?: string;
}

export interface ChatRequest extends TableRequest {
  text?: string;
  reaction?: Reaction;
}
export type Reaction = 'gg' | 'nice' | 'oops' | 'thanks' | 'hurry' | 'wow' | 'sorry' | 'thumbs_up';

export interface MuteRequest extends TableRequest {
  player: string;
  muted: boolean;
}

// -- state ----------------------------------------------------------------------------

/** `players[]` of a state (PROTOCOL.md, plus `away`, `leaving`). */
export interface Player {
  seat: Seat;
  player: string | null;
  chips: number;
  connected: boolean;
  bot: boolean;
  away?: boolean;
  /** `unseat` in a game that takes players between deals: what the seat becomes at the next deal. */
  leaving?: 'open' | 'bot';
}

export interface Timer {
  seat: Seat;
  seconds: number;
  ends_at: UnixMs;
  bank?: number;
}

/** A log-numbered chat line (`state.chat`). */
export interface ChatLine {
  player: string;
  text?: string;
  reaction?: Reaction;
  time: UnixMs;
  /** How many log lines came before it. */
  log_at: number;
}

/** `state.fair`: the commitment of the deal in play; the seed and salt once the table has finished. */
export interface Fair {
  deal: number;
  commitment: string;
  scheme?: 'parlour-fair-1';
  /** Decimal: it does not fit a JavaScript number. */
  seed?: string;
  salt?: string;
}

export interface RematchLink {
  table: TableId;
  same_seed: boolean;
}

export interface StandingsPlayer {
  seat: Seat;
  player: string | null;
  bot: boolean;
  chips: number;
  deals_won: number;
  score?: number;
}
export interface Standings {
  deals: number;
  players: StandingsPlayer[];
  rematch_of?: RematchLink;
  compare?: { table: TableId; deals: number; players: StandingsPlayer[] };
}

// The view ---------------------------------------------------------------------------

/** `view.seats[]` (docs/protocol.md "View schema") plus the games' per-seat facts. */
export interface ViewSeat {
  seat: Seat;
  count: number;
  cards: Card[];
  status: string;
  left: boolean;
  [field: string]: unknown;
}

export interface Pile {
  id: string;
  owner: Seat | null;
  count: number;
  top: Card | null;
  /** A spread face-up pile, bottom first. */
  cards?: Card[];
  [field: string]: unknown;
}

export interface Meld {
  id: number | string;
  owner: Seat | null;
  cards: Card[];
  [field: string]: unknown;
}

export interface TrickPlay {
  seat: Seat;
  card: Card;
}
export interface Trick {
  plays: TrickPlay[];
  trump: string | null;
}

export interface Turn {
  seats: Seat[];
  stage: string;
}

/** A game's view once play has started: the shared schema; each game adds fields of its own. */
export interface GameView {
  layout?: LayoutName;
  phase?: string;
  deal?: number;
  dealer?: Seat | null;
  seats?: ViewSeat[];
  piles?: Pile[];
  melds?: Meld[];
  trick?: Trick;
  pools?: Record<string, number>;
  scores?: number[];
  turn?: Turn;
  /** Building games: the seat the view is for (null for a spectator). */
  viewer?: Seat | null;
  [field: string]: unknown;
}

/** Before play starts the view is the table's seat count and options. */
export interface WaitingView {
  seats: number;
  options: Record<string, OptionValue>;
  // None of a game view's parts yet.
  layout?: undefined;
  phase?: undefined;
  deal?: undefined;
  dealer?: undefined;
  piles?: undefined;
  melds?: undefined;
  trick?: undefined;
  pools?: undefined;
  scores?: undefined;
  turn?: undefined;
  [field: string]: unknown;
}

/** `view` as the client reads it: the waiting view's `seats` is a number, a game's an array. */
export type View = GameView | WaitingView;

// Each layout's view: the schema and the game fields the layouts read (docs/protocol.md
// "Views, game by game"); every field is optional, as not every game of a layout has it.

/** Layout `betting`: Red Dog, Red and Black, Ranter-Go-Round. */
export interface BettingView extends GameView {
  layout: 'betting';
  seats?: (ViewSeat & {
    bet?: number | null;
    target?: Card;
    shown?: Card;
    colour?: 'red' | 'black' | null;
    named?: number | null;
    counters?: number;
    in_deal?: boolean;
    king?: boolean;
    done?: 'stood' | 'exchanged' | 'drew' | null;
  })[];
  ante?: number;
  hand_size?: number;
  limit?: number;
  sequential?: boolean;
  stake?: number;
  /** Ranter-Go-Round: the last player in, once the game ends. */
  winner?: Seat | null;
}

/** Layout `tricks`: Rams, Rounce, Reversi. */
export interface TricksView extends GameView {
  layout: 'tricks';
  seats?: (ViewSeat & { tricks?: number; took_widow?: boolean; dead?: number; in_deal?: boolean })[];
  forced?: Seat | null;
  pool_at_play?: number;
  turned?: Card;
  turned_taken?: boolean;
  widow_taken?: boolean;
  general?: Seat | null;
  could_not_deal?: Seat[];
  leader?: Seat | null;
  last_trick?: TrickPlay[];
  ranking?: string;
  unit?: number;
  stake?: number;
  tricks_per_deal?: number;
}

/** `rules` of every Rummy view: the game's rules as its options set them. */
export interface RummyRules {
  melds: {
    set_min: number; set_max: number; set_duplicates: boolean; set_distinct_suits: boolean; run_min: number;
    ace: 'low' | 'high' | 'low_or_high' | 'around'; deuces_wild: boolean; jokers_wild: boolean; jokers_own_rank: boolean;
  };
  values: { ace: number; ace_low_run: number; face: number; joker: number; wild_deuce: number };
  decks: number;
  jokers: number;
  rummy_only: boolean;
  go_down: boolean;
  max_plays_per_turn: number;
  final_discard_required: boolean;
  needs_earlier_meld: boolean;
  spread_pile: boolean;
  [field: string]: unknown;
}

/** Layout `rummy`: the Rummy family and Carousel. */
export interface RummyView extends GameView {
  layout: 'rummy';
  seats?: (ViewSeat & { melded?: boolean })[];
  rules?: RummyRules;
  must_use?: Card | null;
  one_more_draw?: boolean;
  stock_gone?: boolean;
  call?: { discarder: Seat; card: Card } | null;
  break?: { breaker: Seat; turns_left: number } | null;
  target?: number;
  deals_to_play?: number;
  /** Per seat: the deal's points so far (Michigan), the value melded (Five Hundred, Persian). */
  deal_points?: number[];
  melded?: number[];
  teams?: { seats: Seat[]; score: number }[];
  eliminated?: boolean[];
  scoring?: string;
  // Carousel
  drawn?: number;
  draws_per_turn?: number;
  melded_this_turn?: boolean;
  knock_max?: number;
  knocker?: Seat | null;
  withdrawn?: Seat[];
  final_round?: { turns_left: number };
  deals_won?: number[];
  turn_time_limit_s?: number;
}

/** Layout `building`: Russian Bank, Rabouge. Every pile's `id` names it in a `move`. */
export interface BuildingView extends GameView {
  layout: 'building';
  seats?: (ViewSeat & {
    role?: 'X' | 'Y';
    stock?: number;
    stock_top?: Card | null;
    hand?: number;
    turned?: Card | null;
    discard?: number;
    discards?: number[];
    supply?: number;
    cards_left?: number;
    rabouges?: number;
    opened?: boolean;
  })[];
  piles?: (Pile & { face_up?: Card[]; owners?: Seat[]; top_owner?: Seat | null; side?: Seat; next?: string })[];
  mover?: Seat;
  first_player?: Seat;
  turn_number?: number;
  max_turns?: number;
  stop_rule?: 'refuse' | 'call';
  stake?: number;
  infraction?: string | null;
  demanded_space?: boolean;
  layout_moves?: { made: number; limit: number };
  recycles?: number[];
  starter_rank?: string | null;
  draws_left?: number;
  passes?: number;
  packs?: number;
  stock_size?: number;
  aside?: number;
  rabouge_cards?: number;
  win_stake?: number;
  card_count?: boolean;
  rabouge_stake?: number;
}

/** Layout `cassino`: Royal Cassino. Its melds are the builds. */
export interface CassinoView extends GameView {
  layout: 'cassino';
  seats?: (ViewSeat & { side?: number; captured?: number; sweeps?: number; owns?: (number | string)[] })[];
  melds?: (Meld & { value?: number; multiple?: boolean; groups?: Card[][] })[];
  sides?: { side: number; seats: Seat[]; captured: number; sweeps: number; score: number }[];
  last?: boolean;
  round?: number;
  rounds?: number | null;
  last_capture?: Seat | null;
  target?: number | null;
  max_build?: number;
  card_values?: Record<string, number[]>;
  rules?: Record<string, boolean>;
}

/** A game's view by its layout (a layout this client does not know reads as a plain `GameView`). */
export type LayoutView = BettingView | TricksView | RummyView | BuildingView | CassinoView;

// Results -----------------------------------------------------------------------------

/** A party to a chip movement of a result: a seat, or one of the table's pools by name. */
export type Party = { seat: Seat } | { pool: string };

/** A shortfall: what a seat owed beyond its chips, and to whom (one shape in every game). */
export interface Unpaid {
  seat: Seat;
  to: Party;
  amount: number;
  /** The rule, with `{seat:N}` for seat N's player (docs/protocol.md "Memos"). */
  memo: string;
}

/** A chip movement the games on a chip book list in their result (`movements`, Royal Cassino's `settlement`). */
export interface Movement {
  from: Party;
  to: Party;
  amount: number;
  memo: string;
}

export interface ResultSeat {
  seat: Seat;
  /** What the seat won (+) or lost (−) in the deal. */
  chips: number;
  /** The deal's points, in games that score points. */
  points?: number;
  outcome?: string;
  [field: string]: unknown;
}

/** `result` (docs/protocol.md "Results, game by game"): the common part and each game's own fields. */
export interface Result {
  deal: number;
  /** Absent in the building games (Russian Bank, Rabouge), which have no dealer. */
  dealer?: Seat | null;
  seats: ResultSeat[];
  end?: string;
  winner?: Seat | null;
  winners?: Seat[];
  pot?: number;
  pool?: number;
  melds?: { meld?: number | string; owner: Seat | null; cards: Card[] }[];
  unpaid?: Unpaid[];
  movements?: Movement[];
  [field: string]: unknown;
}

// Each game's result: the common part and the game's own fields (docs/protocol.md
// "Results, game by game", "Rummy family", "Royal Cassino", "Building games").

/** A seat's standing at the deal's end in the betting games (its `status` then). */
export interface BettingResultSeat extends ResultSeat {
  outcome: string;
}

export interface RedDogResult extends Result {
  pot: number;
  seats: (BettingResultSeat & { bet?: number; target?: Card; shown?: Card })[];
}

export interface RedAndBlackResult extends Result {
  unpaid: Unpaid[];
  seats: (BettingResultSeat & { colour?: 'red' | 'black'; bet?: number; cards?: Card[]; named?: number })[];
}

export interface RanterGoRoundResult extends Result {
  pool: number;
  replayed: boolean;
  /** The last player in once the game ends (null before). */
  winner: Seat | null;
  unpaid: Unpaid[];
  seats: (BettingResultSeat & { counters: number; lost_counter: boolean; card?: Card })[];
}

/** Every Rummy game's result (and Carousel's); the fields after `scores` are some games' own. */
export interface RummyResult extends Result {
  end: 'went_out' | 'no_winner' | 'showdown' | 'break' | 'stock_ran_down' | 'stock_exhausted' | 'knock' | 'abandoned' | 'closed' | (string & {});
  winner?: Seat;
  rummy?: boolean;
  hands?: { seat: Seat; cards: Card[]; value: number }[];
  melds?: { meld?: number | string; owner: Seat | null; cards: Card[] }[];
  seats: (ResultSeat & { points?: number })[];
  scores?: number[];
  doubled?: boolean;
  melded?: number | number[];
  counts?: number[];
  winners?: Seat[];
  units?: number;
  breaker?: Seat;
  cards_left?: number;
  game_winners?: Seat[];
  in_hand?: number[];
  going_out_bonus?: number;
  team_deal_points?: number[];
  team_scores?: number[];
  margin?: number;
  void?: boolean;
  eliminated?: Seat[];
  pool?: number;
  shown?: Card;
  pool_winners?: Seat[];
  bonus?: number;
  // Carousel
  knocker?: Seat | null;
  bonuses?: number[];
  undercut?: boolean;
  deals_won?: number[];
  game_winner?: Seat | null;
  final_scores?: number[];
  settlement?: { from: Seat; to: Seat; points: number; chips: number; double: boolean }[];
}

/** Rams and Rounce. */
export interface TricksResult extends Result {
  outcome: string;
  trump: string;
  general: Seat | null;
  pool_at_play: number;
  pool: number;
  movements: Movement[];
  unpaid: Unpaid[];
  seats: (ResultSeat & { tricks: number; unpaid: number; took_widow: boolean; outcome: string })[];
}

export interface ReversiResult extends Result {
  void: boolean;
  reversis: Seat | null;
  jack: boolean;
  pool: number;
  movements: Movement[];
  unpaid: Unpaid[];
  seats: (ResultSeat & { tricks: number; unpaid: number; outcome: string })[];
}

export interface RoyalCassinoResult extends Result {
  end: 'deal' | 'game' | 'deal_limit' | 'abandoned' | (string & {});
  residue?: { seat: Seat; cards: Card[] };
  items?: { item: string; side: number; points: number; card?: Card }[];
  counted?: number;
  sides?: { side: number; seats: Seat[]; cards: number; spades: number; sweeps: number; items: Record<string, number>; points: number; score: number }[];
  scores?: number[];
  target?: number | null;
  winner?: number;
  winner_seats?: Seat[];
  lurched?: number[];
  seats: (ResultSeat & { points: number })[];
  settlement?: Movement[];
}

export interface RussianBankResult extends Result {
  end: 'won' | 'draw' | 'abandoned' | 'closed';
  winner: Seat | null;
  points: number;
  draw_reason: 'repetition' | 'recycling' | 'turn_limit' | null;
  turns: number;
  left: { seat: Seat; stock: number; hand: number; discard: number; turned: number }[];
  seats: (ResultSeat & { points: number; unpaid: number; outcome: string })[];
  movements: Movement[];
  unpaid: Unpaid[];
}

export interface RabougeResult extends Result {
  end: 'won' | 'impasse' | 'abandoned' | 'closed';
  winners: Seat[];
  rabouges: number[];
  starter_rank: string | null;
  left: { seat: Seat; stock: number; supply: number; discards: number[]; turned: number }[];
  seats: (ResultSeat & { points: number; unpaid: number; outcome: string })[];
  movements: Movement[];
  unpaid: Unpaid[];
}

/** Each game's result by its id. */
export interface ResultByGame {
  red_dog: RedDogResult;
  red_and_black: RedAndBlackResult;
  ranter_go_round: RanterGoRoundResult;
  rummy: RummyResult;
  michigan_rummy: RummyResult;
  five_hundred_rummy: RummyResult;
  persian_rummy: RummyResult;
  straight_rummy: RummyResult;
  queen_city_rummy: RummyResult;
  block_rummy: RummyResult;
  skip_rummy: RummyResult;
  round_the_corner_rummy: RummyResult;
  java_rummy: RummyResult;
  rummy_poker: RummyResult;
  double_rummy: RummyResult;
  carousel: RummyResult;
  rams: TricksResult;
  rounce: TricksResult;
  reversi: ReversiResult;
  royal_cassino: RoyalCassinoResult;
  russian_bank: RussianBankResult;
  rabouge: RabougeResult;
}

// The push and the whole state ----------------------------------------------------------

/** The parts of a state every push carries, whole or delta. */
interface StateCommon extends ReplyBase {
  type: 'state';
  table: TableId;
  seq: number;
  status: TableStatus;
  /** The recipient's seat, null for a spectator. */
  seat: Seat | null;
  to_act: Seat[];
  legal: LegalAction[];
  /** The log lines this push carries, `log_from` numbering the first. */
  log: string[];
  log_from: number;
  timer?: Timer;
  timers?: Timer[];
  failure?: string;
  /** In line for a seat: the place, 1 first. */
  waiting?: number;
  muted?: string[];
  standings?: Standings;
  rematch?: RematchLink;
  rematch_of?: RematchLink;
  /** Host and seated players only. */
  invite?: string;
  result?: Result;
  fair?: Fair;
}

/**
 * A `state` push as it comes off the wire. A whole push (every push of a connection that
 * did not ask for `deltas`: PROTOCOL.md version 1; a connection's first) has every part;
 * a delta push (feature `deltas`, docs/protocol.md "State") leaves out what has not
 * changed since the connection's last push.
 */
export interface StatePush extends StateCommon {
  game?: string;
  host?: string;
  clock?: Clock;
  players?: Player[];
  /** Delta: one balance per entry of the last `players` sent, in its order. */
  chips?: number[];
  /** Delta: a view without the constant keys unless this names them. */
  view: View;
  view_constants?: string[];
  chat?: ChatLine[];
  chat_from?: number;
}

/**
 * A whole push: every push of a connection that did not ask for `deltas` (PROTOCOL.md
 * version 1), and any connection's first push of a table.
 */
export interface WholeStatePush extends StatePush {
  game: string;
  host: string;
  clock: Clock;
  players: Player[];
  chips?: never;
  chat: ChatLine[];
  chat_from: number;
}

/**
 * The whole state the client keeps: a push with the connection's earlier pushes laid
 * under it (connection.js `completeState`). `log` and `chat` are the kept tails.
 */
export interface State extends StateCommon {
  game: string;
  host: string;
  clock?: Clock;
  players: Player[];
  view: View;
  chat: ChatLine[];
  chat_from?: number;
}

// -- ledger, settle-up, history ----------------------------------------------------------

export interface LedgerRequest {
  player?: string;
  limit?: number;
  before?: number;
}
export interface LedgerEntry {
  entry: number;
  time: IsoTime;
  amount: number;
  balance: number;
  /** null for a movement outside a table, or a private table's read by someone not at it. */
  table: TableId | null;
  game: string | null;
  memo: string;
  seq: number | null;
  deal: number | null;
}
export interface LedgerReply extends ReplyBase {
  type: 'ledger';
  player: string;
  balance: number;
  entries: LedgerEntry[];
}

export interface SettleRequest {
  tables?: TableId[];
}
export interface PlayerNet {
  player: string;
  net: number;
}
export interface Payment {
  from: string;
  to: string;
  amount: number;
}
export interface HouseLine {
  player: string;
  amount: number;
}
export interface PoolLeft {
  table: TableId;
  pool: string;
  left: number;
}
export interface SettledTable {
  table: TableId;
  game: string;
  host: string;
  status: TableStatus;
  created_at: IsoTime;
  nets: (PlayerNet & { bot: boolean })[];
  pools: { pool: string; left: number }[];
}
export interface Settled extends ReplyBase {
  type: 'settled';
  tables: SettledTable[];
  nets: PlayerNet[];
  payments: Payment[];
  from_bots_and_pools: HouseLine[];
  to_bots_and_pools: HouseLine[];
  bots: PlayerNet[];
  bots_net: number;
  pools: PoolLeft[];
  pools_left: number;
  method: 'exact' | 'greedy';
  /** "Tonight" (no `tables` asked): the start of the window. */
  since?: IsoTime;
}

export interface HistoryRequest {
  table: TableId;
  deal?: number;
  from?: number;
}
export interface HistoryDeal {
  deal: number;
  from_seq: number;
  to_seq: number;
  finished: boolean;
  commitment: string;
  shuffle?: number;
}
export interface HistoryEvent {
  kind: string;
  seat?: Seat;
  player?: string;
  action?: Action;
  by?: string;
  [field: string]: unknown;
}
export interface HistoryStep {
  seq: number;
  deal: number;
  event: HistoryEvent;
  log: string[];
  phase: string;
  to_act: Seat[];
  /** Per seat, after the step. */
  chips: number[];
  /** The viewer's own seat's view and legal list (a table still playing). */
  view?: View;
  legal?: LegalAction[];
  /** Every seat's (a finished table). */
  views?: View[];
  legals?: LegalAction[][];
  /** A finished table: what a spectator saw. */
  table_view?: View;
  result?: Result;
}
export interface HistoryFair extends Fair {
  pack?: { short_pack?: boolean; jokers?: number; decks?: number; eleven_twelve_spots?: boolean } | null;
  stacked_deck?: Card[] | null;
}
export interface History extends ReplyBase {
  type: 'history';
  table: TableId;
  game: string;
  options: Record<string, OptionValue>;
  status: TableStatus;
  host: string;
  seats: { seat: Seat; player: string | null; bot: boolean }[];
  viewer: { player: string; seat: Seat | null; full: boolean };
  deals: HistoryDeal[];
  deal: number | null;
  steps: HistoryStep[];
  next_from: number | null;
  fair?: HistoryFair;
  failure?: string;
}

// -- requests and their replies -----------------------------------------------------------

/** The fields of each request the client sends (besides `type` and `id`). */
export interface RequestMap {
  hello: HelloRequest;
  recover: RecoverRequest;
  device_sign_in: DeviceSignInRequest;
  passphrase_sign_in: PassphraseSignInRequest;
  signup_link: SignupLinkRequest;
  device_link: Record<string, never>;
  devices: Record<string, never>;
  revoke_device: RevokeDeviceRequest;
  set_passphrase: SetPassphraseRequest;
  ping: Record<string, never>;
  games: Record<string, never>;
  tables: TablesRequest;
  create: CreateRequest;
  join: JoinRequest;
  watch: WatchRequest;
  leave: TableRequest;
  bot: BotRequest;
  start: TableRequest;
  end: TableRequest;
  unseat: UnseatRequest;
  back: TableRequest;
  rematch: RematchRequest;
  act: ActRequest;
  chat: ChatRequest;
  mute: MuteRequest;
  ledger: LedgerRequest;
  settle: SettleRequest;
  history: HistoryRequest;
}

/** The direct reply to each request (an `error` rejects the request instead). */
export interface ReplyMap {
  hello: Welcome;
  recover: Welcome;
  device_sign_in: Welcome;
  passphrase_sign_in: Welcome;
  signup_link: SignupLinkReply;
  device_link: DeviceLinkReply;
  devices: DevicesReply;
  revoke_device: OkReply;
  set_passphrase: OkReply;
  ping: ReplyBase & { type: 'pong' };
  games: GamesReply;
  tables: TablesReply;
  create: Created;
  join: Joined | Watching;
  watch: Watching;
  leave: Left;
  bot: OkReply;
  start: OkReply;
  end: OkReply;
  unseat: OkReply;
  back: BackReply;
  rematch: Created;
  act: OkReply;
  chat: OkReply;
  mute: OkReply;
  ledger: LedgerReply;
  settle: Settled;
  history: History;
}

export type RequestType = keyof RequestMap;

/** Every frame the server pushes without a request (no `re`), by type. */
export interface PushMap {
  state: StatePush;
  error: ErrorMessage;
  welcome: Welcome;
}

/** Any frame the server sends. */
export type ServerMessage = ReplyMap[RequestType] | StatePush | ErrorMessage;
