import { SQLDatabase } from "encore.dev/storage/sqldb";

// The url service declares the database and runs its migrations; this service writes the
// same rows (a link is made, changed and removed here, redirected and counted there).
export const db = SQLDatabase.named("url");
