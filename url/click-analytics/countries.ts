import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import log from "encore.dev/log";
import { Reader, type Response } from "mmdb-lib";
import { unknown } from "./dimensions";

/** A record of this database: mmdb-lib's types describe MaxMind's layouts, not this one's. */
interface CountryRecord {
  country_code?: string;
}

/**
 * The IP-to-country database: ip-location-db's geo-whois-asn country set (CC0),
 * shipped inside its npm package, so nothing is downloaded at run time; about 8 MB,
 * read once at start (about 8 ms). Its date is the package's: updating the package
 * updates the countries.
 */
const databaseFile = "@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb";

function openDatabase(): Reader<Response> | undefined {
  try {
    const file = createRequire(import.meta.url).resolve(databaseFile);
    return new Reader<Response>(readFileSync(file));
  } catch (err) {
    // Analytics without countries beats no redirects: every click's country is unknown.
    log.error(err, "the IP-to-country database could not be read: clicks are recorded with country unknown", { databaseFile });
    return undefined;
  }
}

const database = openDatabase();

/** An IPv4 address a dual-stack socket reports as IPv6 (::ffff:192.0.2.1). */
const mappedPrefix = "::ffff:";

/**
 * The ISO 3166 code of the country an address is registered in, upper case; unknown
 * for private, loopback and unregistered addresses (the database holds none of them),
 * and for anything that is not an address.
 */
export function countryOf(address: string | undefined): string {
  if (!address || database === undefined) return unknown;
  const ip = address.startsWith(mappedPrefix) && address.includes(".") ? address.slice(mappedPrefix.length) : address;
  try {
    const code = (database.get(ip) as CountryRecord | null)?.country_code;
    return code && /^[A-Z]{2}$/.test(code) ? code : unknown;
  } catch {
    return unknown; // not an IP address (mmdb-lib throws)
  }
}
