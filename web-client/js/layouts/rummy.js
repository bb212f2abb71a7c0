// Placeholder: the generic layout until the rummy family's own table is drawn.
import { createGenericLayout } from './generic.js';

export function createRummyLayout(game) {
  return { ...createGenericLayout(game), family: 'rummy' };
}
