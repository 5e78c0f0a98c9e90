import { Service } from "encore.dev/service";

// The graphql service: one raw endpoint that hands its requests to Apollo Server.
export default new Service("graphql");
