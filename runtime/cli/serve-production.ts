// The entry point of `build`'s deployable bundle: the server of serve.ts in production
// mode unless NODE_ENV says otherwise, so a missing secret or DATABASE_URL stops start-up
// rather than every instance inventing its own keys or database.
process.env.NODE_ENV ??= "production";
await import("./serve.ts"); // imported after the line above, as its configuration reads NODE_ENV
export {}; // a module, for the top-level await
