import { Bucket as Store } from "encore.dev/storage/objects";

// A reference through an aliased import: no declaration of its own.
export const sameAvatars = Store.named("avatars");
