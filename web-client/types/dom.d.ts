// Types of the client's own DOM helpers (js/dom.js): a declaration file for the type
// checker, never served.

/** `on*` keys of `el`'s attributes: each listener gets its own event type (onclick: MouseEvent, …). */
export type Listeners = {
  [E in keyof GlobalEventHandlersEventMap as `on${E}`]?: (event: GlobalEventHandlersEventMap[E]) => void;
};

/** `el`'s attributes: plain attributes and properties, plus `class`, `text`, `dataset`, `style`, listeners. */
export type Attrs = Listeners & {
  class?: string | null;
  /** Set as textContent, through String(). */
  text?: unknown;
  dataset?: Record<string, string>;
  style?: Record<string, string>;
  [attribute: string]: unknown;
};

/** What `el` and `append` take as children; null, undefined and false are skipped. */
export type Child = Node | string | number | boolean | null | undefined | readonly Child[];
