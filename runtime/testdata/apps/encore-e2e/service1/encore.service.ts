import { middleware } from "encore.dev/api";
import { Service } from "encore.dev/service";

// Runs around the endpoints tagged "mwtest": hands them a value through req.data, then
// changes the answer's status and adds a header on the way out.
const enrich = middleware({ target: { tags: ["mwtest"] } }, async (req, next) => {
  req.data.customMsg = "Hello from middleware!";
  const resp = await next(req);
  resp.status = 201;
  resp.header.add("x-test-header", "hello");
  return resp;
});

export default new Service("service1", { middlewares: [enrich] });
