import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import log from "encore.dev/log";
import ipaddr from "ipaddr.js";
import { LRUCache } from "lru-cache";
import { Reader, type Response } from "mmdb-lib";
import { unknown } from "./dimensions";

/** A record of this database: mmdb-lib's types describe MaxMind's layouts, not this one's. */
interface CountryRecord {
  country_code?: string;
}

/**
 * The IP-to-country database: ip-location-db's geo-whois-asn country set (CC0),
 * shipped inside its npm package, so nothing is downloaded at run time. Its date is the
 * package's: updating the package updates the countries.
 */
const databaseFile = "@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb";

/**
 * The database, read whole at the first public address looked up rather than at import:
 * about 8 MB that an instance never clicked (and every test or tool importing this
 * module) need not hold. That one click waits for the read, once: 12-40 ms measured on
 * a busy 2-core machine, nearly all of it the read; every lookup after it costs what it
 * did when the file was read at start. Private and loopback addresses never read it.
 */
let database: Reader<Response> | null | undefined;

function openedDatabase(): Reader<Response> | null {
  if (database !== undefined) return database;
  try {
    const file = createRequire(import.meta.url).resolve(databaseFile);
    database = new Reader<Response>(readFileSync(file));
  } catch (err) {
    // Analytics without countries beats no redirects: every click's country is unknown.
    log.error(err, "the IP-to-country database could not be read: clicks are recorded with country unknown", { databaseFile });
    database = null;
  }
  return database;
}

/**
 * Looking an address up costs 1–4 µs (parsing it, checking its range, walking the
 * tree), a tenth of a cached redirect; clients come back, so answers are remembered.
 */
const cache = new LRUCache<string, string>({ max: 10_000 });

/**
 * The ISO 3166 code of the country an address is registered in, upper case; unknown
 * for anything but a public address (private, loopback, link-local and other reserved
 * ranges are checked here: the database places some of them, 192.168.0.0/16 among
 * them, in a country), for public addresses the database lacks, and for text that is
 * not an address.
 */
export function countryOf(address: string | undefined): string {
  if (!address) return unknown;
  let country = cache.get(address);
  if (country === undefined) {
    country = lookUp(address);
    cache.set(address, country);
  }
  return country;
}

function lookUp(address: string): string {
  if (!ipaddr.isValid(address)) return unknown;
  const ip = ipaddr.process(address); // an IPv4 address a dual-stack socket reports as ::ffff:a.b.c.d is looked up as IPv4
  if (ip.range() !== "unicast") return unknown;
  const code = (openedDatabase()?.get(ip.toString()) as CountryRecord | null | undefined)?.country_code;
  return code && /^[A-Z]{2}$/.test(code) ? code : unknown;
}
