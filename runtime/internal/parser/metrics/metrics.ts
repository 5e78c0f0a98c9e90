import ts from "typescript";
import type { MetricMeta } from "../../meta/types.ts";
import { isValidLabelName, snakeCase } from "../../metrics/label-names.ts";
import { errorAt, locationOf } from "../program/errors.ts";
import { compareText, type AppProgram } from "../program/program.ts";
import { servicesOf, usesOf } from "../services/references.ts";
import { sdkExportOf, isSdkExport } from "../sdk/sdk-symbols.ts";
import { serviceOfFile, type ServiceInfo } from "../services/services.ts";

const classes = {
  Counter: { kind: "counter", grouped: false },
  CounterGroup: { kind: "counter", grouped: true },
  Gauge: { kind: "gauge", grouped: false },
  GaugeGroup: { kind: "gauge", grouped: true },
} as const;

type MetricClass = keyof typeof classes;
type Metric = Omit<MetricMeta, "usedBy"> & { readonly node: ts.NewExpression };

/**
 * encore.dev/metrics declarations, sorted by name, with Encore's rules: bound to a variable
 * at the top level of a file (`const orders = new Counter("orders_processed")`), named by a
 * string literal in snake_case not starting with "e_" (the runtime's own metrics), unique in
 * the app; a group's label interface has string, number or boolean fields, none named
 * "service" (the label the runtime adds). Each with the services using it: with one, its
 * series carry that service wherever they are updated.
 */
export function findMetrics(app: AppProgram, services: readonly ServiceInfo[]): MetricMeta[] {
  const metrics: Metric[] = [];
  for (const file of app.files) {
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node)) {
        const which = metricClassOf(app, node.expression);
        if (which) metrics.push(readMetric(app, services, node, which, metrics));
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  const uses = usesOf(app, metrics.map((metric) => metric.node));
  return metrics
    .map(({ node, ...metric }) => ({ ...metric, usedBy: servicesOf(services, [node, ...uses.get(node)!]) }))
    .sort((a, b) => compareText(a.name, b.name));
}

function metricClassOf(app: AppProgram, callee: ts.Expression): MetricClass | undefined {
  const found = sdkExportOf(app.checker, callee);
  return (Object.keys(classes) as MetricClass[]).find((name) => isSdkExport(found, "metrics", name));
}

function readMetric(app: AppProgram, services: readonly ServiceInfo[], node: ts.NewExpression, which: MetricClass, earlier: readonly Metric[]): Metric {
  const arg = node.arguments?.[0];
  if (!arg || !(ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg))) {
    throw errorAt(app.appRoot, arg ?? node, `the name passed to new ${which}(...) must be a string literal`);
  }
  const name = arg.text;
  const problem = metricNameProblem(name);
  if (problem) throw errorAt(app.appRoot, arg, `invalid metric name "${name}": ${problem}`);
  if (!isPackageLevel(node)) {
    throw errorAt(app.appRoot, node, `metric "${name}" must be declared at package level, as \`const name = new ${which}("${name}")\` at the top of a file`);
  }
  const first = earlier.find((m) => m.name === name);
  if (first) throw errorAt(app.appRoot, node, `metric "${name}" is already declared at ${first.declaredIn.file}:${first.declaredIn.line}`);
  const { kind, grouped } = classes[which];
  const service = serviceOfFile(services, node.getSourceFile().fileName);
  return {
    name,
    kind,
    labels: grouped ? labelsOf(app, node, which, name) : [],
    service: service?.name ?? null,
    declaredIn: locationOf(app.appRoot, node),
    node,
  };
}

/** Encore's rule for metric names, with the prefix of the runtime's own metrics reserved. */
export function metricNameProblem(name: string): string | null {
  if (name.length === 0 || name.length > 63) return `a name has 1 to 63 characters, not ${name.length}`;
  if (!/^[a-z]/.test(name)) return "a name starts with a lowercase letter";
  if (!/^[a-z0-9_]*$/.test(name)) return "a name holds only lowercase letters, digits and underscores (snake_case)";
  if (!/[a-z0-9]$/.test(name)) return "a name ends with a lowercase letter or a digit";
  if (name.startsWith("e_")) return 'the prefix "e_" is reserved for the runtime\'s own metrics';
  return null;
}

/** `const x = new Counter(...)` (exported or not) directly in a file, not in a function or block. */
function isPackageLevel(node: ts.NewExpression): boolean {
  const declaration = node.parent;
  if (!ts.isVariableDeclaration(declaration) || declaration.initializer !== node || !ts.isIdentifier(declaration.name)) return false;
  const statement = declaration.parent.parent;
  return ts.isVariableStatement(statement) && ts.isSourceFile(statement.parent);
}

function labelsOf(app: AppProgram, node: ts.NewExpression, which: MetricClass, name: string): string[] {
  const typeArg = node.typeArguments?.[0];
  if (!typeArg) throw errorAt(app.appRoot, node, `new ${which}("${name}") needs its labels' interface as a type argument: new ${which}<Labels>("${name}")`);
  const checker = app.checker;
  const labels: string[] = [];
  for (const field of checker.getPropertiesOfType(checker.getTypeFromTypeNode(typeArg))) {
    const label = snakeCase(field.name);
    const where = field.valueDeclaration ?? typeArg;
    if (label === "service") {
      throw errorAt(app.appRoot, where, `label "${field.name}" of metric "${name}": "service" is reserved, the runtime adds it to every series`);
    }
    if (!isValidLabelName(label)) {
      throw errorAt(app.appRoot, where, `label "${field.name}" of metric "${name}": a label name holds letters, digits and underscores, and does not start with "__"`);
    }
    const type = checker.getTypeOfSymbolAtLocation(field, typeArg);
    if (field.flags & ts.SymbolFlags.Optional || !isLabelValueType(type)) {
      throw errorAt(
        app.appRoot,
        where,
        `label "${field.name}" of metric "${name}" must be a string, number or boolean, not "${checker.typeToString(type)}"`,
      );
    }
    labels.push(label);
  }
  return labels.sort(compareText);
}

const labelValueFlags = ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike;

/** string, number, boolean, their literals and enums, and unions of those. */
function isLabelValueType(type: ts.Type): boolean {
  if (type.isUnion()) return type.types.every(isLabelValueType);
  return (type.flags & labelValueFlags) !== 0 && (type.flags & ts.TypeFlags.BigIntLike) === 0;
}
