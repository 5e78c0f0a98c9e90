import { Gateway } from "encore.dev/api";
import { auth } from "../lib/auth";

export const gateway = new Gateway({ authHandler: auth });
