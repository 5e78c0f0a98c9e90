import { api } from "encore.dev/api";

interface Job {
  name: string;
  run: () => void;
}

export const submit = api({ path: "/jobs" }, async (job: Job): Promise<void> => {
  void job;
});
