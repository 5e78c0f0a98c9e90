import { Counter, CounterGroup, Gauge, GaugeGroup } from "encore.dev/metrics";

export const ordersProcessed = new Counter("orders_processed");

interface JobLabels {
  jobType: string;
  priority: number;
  success: boolean;
  region: "eu" | "us";
}

export const jobsProcessed = new CounterGroup<JobLabels>("jobs_processed");

/** Items waiting in the queue. */
export const queueLength = new Gauge("queue_length");

interface RegionLabels extends Record<string, string | number | boolean> {
  region: string;
}

export const connections = new GaugeGroup<RegionLabels>("active_connections");
