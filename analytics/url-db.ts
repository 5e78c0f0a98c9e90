import { SQLDatabase } from "encore.dev/storage/sqldb";

// Click analytics live in the url service's database, beside the links they count: the url
// service writes each click's hourly row as it stores the click; this service reads them, and
// its rollup job folds old hours into days.
export const urlDb = SQLDatabase.named("url");
