// Narrowings the client relies on that lib.es2022 does not declare: a declaration
// file for the type checker, never served.

interface NumberConstructor {
  // Both are true only for a number, so they narrow like `typeof x === 'number'`
  // (the client checks what the server sent with them).
  isInteger(value: unknown): value is number;
  isFinite(value: unknown): value is number;
}
