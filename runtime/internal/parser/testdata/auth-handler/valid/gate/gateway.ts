import { Gateway } from "encore.dev/api";
import { auth } from "./auth";

export const gateway = new Gateway({ authHandler: auth });
