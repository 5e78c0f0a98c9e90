import { Bucket } from "encore.dev/storage/objects";
import * as objects from "encore.dev/storage/objects";

export const avatars = new Bucket("avatars", { public: true });

export const archive = new objects.Bucket("archive", { versioned: true, public: false });

export const scratch = new Bucket("scratch");
