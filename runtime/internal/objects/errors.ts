// The errors of encore.dev/storage/objects, with the real package's class names,
// so `err instanceof ObjectNotFound` reads the same under Encore and here.

export class ObjectsError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ObjectsError";
  }
}

/** The object (or the version asked for) does not exist. */
export class ObjectNotFound extends ObjectsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ObjectNotFound";
  }
}

/** An upload's precondition (notExists) did not hold. */
export class PreconditionFailed extends ObjectsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PreconditionFailed";
  }
}

/** A bad object name or option: refused before anything is stored. */
export class InvalidArgument extends ObjectsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InvalidArgument";
  }
}
