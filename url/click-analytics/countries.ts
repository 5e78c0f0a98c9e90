import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import log from "encore.dev/log";
import ipaddr from "ipaddr.js";
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

/**
 * The ISO 3166 code of the country an address is registered in, upper case; unknown
 * for anything but a public address (private, loopback, link-local and other reserved
 * ranges are checked here: the database places some of them, 192.168.0.0/16 among
 * them, in a country), for public addresses the database lacks, and for text that is
 * not an address.
 */
export function countryOf(address: string | undefined): string {
  if (!address || database === undefined || !ipaddr.isValid(address)) return unknown;
  const ip = ipaddr.process(address); // an IPv4 address a dual-stack socket reports as ::ffff:a.b.c.d is looked up as IPv4
  if (ip.range() !== "unicast") return unknown;
  const code = (database.get(ip.toString()) as CountryRecord | null)?.country_code;
  return code && /^[A-Z]{2}$/.test(code) ? code : unknown;
}
