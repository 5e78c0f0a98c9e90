// The docker project's global setup: the images, built once for every file of the suite.
import type { TestProject } from "vitest/node";
import { buildImages, type Images } from "./images.ts";

declare module "vitest" {
  export interface ProvidedContext {
    dockerImages: Images;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  project.provide("dockerImages", await buildImages());
}
