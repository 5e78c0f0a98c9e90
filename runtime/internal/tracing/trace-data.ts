// Declared by tracing, which makes it; reqtrack/meta.ts, which reports it in currentRequest(), takes it from here.

/**
 * Information about the active trace, set while tracing is on (the development dashboard,
 * or an OTLP endpoint): W3C ids in hex. spanId is the request's span (the HTTP request's
 * root, a delivery's, or the handler's span for a call from another service), parentSpanId
 * the span it started under (the call's, for a call).
 */
export interface TraceData {
  traceId: string;
  spanId: string;
  parentTraceId?: string;
  parentSpanId?: string;
  extCorrelationId?: string;
}
