import { context, diag, DiagLogLevel, propagation, trace, type DiagLogger, type Tracer } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { defaultResource, resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { rootLogger } from "../log/root.ts";
import type { TracingOptions } from "./options.ts";
import { TraceRing } from "./ring.ts";

/** Longest attribute text kept (a SQL statement), in characters: for the ring and exporters alike. */
export const maxAttributeLength = 4096;

export interface OpenTelemetry {
  readonly tracer: Tracer;
  readonly ring: TraceRing | null;
  /** Ends the provider (exporting what is pending, for at most `timeoutMs`) and unregisters the globals. */
  shutdown(timeoutMs: number): Promise<void>;
}

/**
 * One tracer provider with the ring and, with an OTLP endpoint, the exporter behind a
 * batch processor (it sends every 5 s while spans are waiting, and sets no timer while
 * none are). Registered as OpenTelemetry's global provider, context manager
 * (AsyncLocalStorage) and propagator, so spans an app makes with the API itself join
 * the runtime's traces. The exporter reads the other OTEL_EXPORTER_OTLP_* variables
 * (headers, timeout, compression, certificates) itself.
 */
export function setUpOpenTelemetry(options: TracingOptions): OpenTelemetry {
  const ring = options.keep === null ? null : new TraceRing(options.keep);
  const processors: SpanProcessor[] = [];
  if (ring) processors.push(ring);
  if (options.otlpTracesUrl !== null) processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url: options.otlpTracesUrl })));
  const provider = new BasicTracerProvider({
    resource: defaultResource().merge(
      resourceFromAttributes({ "service.name": options.serviceName, "deployment.environment.name": options.environment }),
    ),
    spanLimits: { attributeValueLengthLimit: maxAttributeLength },
    spanProcessors: processors,
  });
  diag.setLogger(diagnostics(), DiagLogLevel.WARN);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return {
    tracer: provider.getTracer("encore-selfhost"),
    ring,
    shutdown: async (timeoutMs) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
      try {
        const exported = provider.shutdown().catch((err: unknown) => rootLogger().warn({ err }, "exporting the last spans failed"));
        await Promise.race([exported, late]);
      } finally {
        clearTimeout(timer);
        trace.disable();
        propagation.disable();
        context.disable();
        diag.disable();
      }
    },
  };
}

/** OpenTelemetry's own complaints (an export that failed) in the process's log. */
function diagnostics(): DiagLogger {
  const log = rootLogger().child({ component: "opentelemetry" });
  const warn = (message: string, ...args: unknown[]) => {
    const err = args.find((a) => a instanceof Error);
    log.warn(err ? { err } : {}, message);
  };
  const ignore = () => {};
  return { error: warn, warn, info: ignore, debug: ignore, verbose: ignore };
}
