import type { IncomingMessage } from "node:http";
import { clientAddress } from "../link-answers/client-address";
import { countryOf } from "./countries";
import { hourOf, joinDetails } from "./dimensions";
import { referrerOf } from "./referrers";
import { agentOf } from "./user-agents";

/**
 * What the lookup answering `req` records of its click, as the click counter keeps it
 * (dimensions.ts): the hour, the referrer's host, the country of the client's address
 * (the one `trustProxy` decides, as for every limit by address), and what its
 * User-Agent says. Costs well under a microsecond per click once its agent, address
 * and referrer were seen (each is remembered: user-agents.ts, countries.ts, referrers.ts).
 */
export function describeClick(req: IncomingMessage, trustProxy: boolean, now = Date.now()): string {
  const agent = agentOf(req.headers["user-agent"]);
  return joinDetails(hourOf(now), referrerOf(req.headers.referer), countryOf(clientAddress(req, trustProxy)), agent.part);
}
