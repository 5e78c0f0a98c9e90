import ts from "typescript";
import type { JSONSchema, SubscriptionMeta, TopicMeta } from "../../meta/types.ts";
import { errorAt, locationOf } from "../program/errors.ts";
import { propertyNameOf } from "../program/literals.ts";
import { compareText, type AppProgram } from "../program/program.ts";
import { namedResource, servicesOf, usesOf } from "../services/references.ts";
import { typeName, type SchemaBuilder } from "../schema/schema.ts";
import { isSdkExport, sdkExportOf } from "../sdk/sdk-symbols.ts";
import { serviceOfFile, type ServiceInfo } from "../services/services.ts";

export interface PubSub {
  readonly topics: TopicMeta[];
  readonly subscriptions: SubscriptionMeta[];
}

interface Declared {
  readonly kind: "topic" | "subscription";
  readonly node: ts.NewExpression;
  readonly name: string;
  readonly service: string;
}

/**
 * Topics with the services publishing to them and their message type, and subscriptions
 * with their topic, each sorted by name. As in Encore, a subscription's topic must resolve
 * to a `new Topic(...)` declaration, and a service publishes when its files call
 * `.publish(...)` on a topic.
 */
export function findPubSub(app: AppProgram, services: readonly ServiceInfo[], schemas: SchemaBuilder): PubSub {
  const declared = findDeclarations(app, services);
  const topics = declared.filter((d) => d.kind === "topic");
  for (const topic of topics) checkOrderingAttribute(app, topic);
  const uses = usesOf(app, topics.map((topic) => topic.node));
  return {
    topics: topics
      .map((topic) => ({
        name: topic.name,
        service: topic.service,
        publishers: servicesOf(services, uses.get(topic.node)!.filter((use) => isPublishing(app, use))),
        message: messageSchema(app, schemas, topic),
        declaredIn: locationOf(app.appRoot, topic.node),
      }))
      .sort((a, b) => compareText(a.name, b.name)),
    subscriptions: declared
      .filter((d) => d.kind === "subscription")
      .map((subscription) => ({
        name: subscription.name,
        service: subscription.service,
        topic: topicOf(app, subscription.node, topics),
        declaredIn: locationOf(app.appRoot, subscription.node),
      }))
      .sort((a, b) => compareText(a.name, b.name)),
  };
}

function findDeclarations(app: AppProgram, services: readonly ServiceInfo[]): Declared[] {
  const declared: Declared[] = [];
  for (const file of app.files) {
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node)) {
        const found = readDeclaration(app, services, node, declared);
        if (found) declared.push(found);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return declared;
}

function readDeclaration(app: AppProgram, services: readonly ServiceInfo[], node: ts.NewExpression, earlier: readonly Declared[]): Declared | undefined {
  const sdk = sdkExportOf(app.checker, node.expression);
  const kind = isSdkExport(sdk, "pubsub", "Topic") ? "topic" : isSdkExport(sdk, "pubsub", "Subscription") ? "subscription" : null;
  if (!kind) return undefined;
  const name = kind === "topic" ? literalName(app, node, 0, "new Topic(...)") : literalName(app, node, 1, "new Subscription(topic, name, ...)");
  const service = serviceOfFile(services, node.getSourceFile().fileName);
  if (!service) throw errorAt(app.appRoot, node, `${kind} "${name}" must be declared inside a service`);
  const first = kind === "topic" ? earlier.find((d) => d.kind === "topic" && d.name === name) : undefined;
  if (first) {
    const at = locationOf(app.appRoot, first.node);
    throw errorAt(app.appRoot, node, `topic "${name}" is already declared at ${at.file}:${at.line}`);
  }
  return { kind, node, name, service: service.name };
}

function literalName(app: AppProgram, node: ts.NewExpression, index: number, construct: string): string {
  const arg = node.arguments?.[index];
  if (!arg || !(ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg))) {
    throw errorAt(app.appRoot, arg ?? node, `the name passed to ${construct} must be a string literal`);
  }
  return arg.text;
}

/** The topic's type argument, written (`new Topic<Message>(...)`) or inferred. */
function messageType(app: AppProgram, topic: Declared): ts.Type | undefined {
  const written = topic.node.typeArguments?.[0];
  return written
    ? app.checker.getTypeFromTypeNode(written)
    : app.checker.getTypeArguments(app.checker.getTypeAtLocation(topic.node) as ts.TypeReference)[0];
}

/**
 * A topic's `orderingAttribute`, as Encore reads it: a string literal (its parser takes
 * the config as literals), naming a top-level field of the message declared as
 * `Attribute<...>`. Encore's runtime takes the ordering key from the message's
 * attributes, which only `Attribute` fields become, so any other name would make every
 * publish fail ("ordering attribute ... not found"); TypeScript says so through
 * `AttributesOf`, and generation refuses it here.
 */
function checkOrderingAttribute(app: AppProgram, topic: Declared): void {
  const config = topic.node.arguments?.[1];
  if (!config || !ts.isObjectLiteralExpression(config)) return;
  const property = config.properties.find((p) => propertyNameOf(p) === "orderingAttribute");
  if (!property) return;
  const value = ts.isPropertyAssignment(property) ? property.initializer : undefined;
  // Only a string literal, as Encore's parser: not a template, not a constant's name.
  if (!value || !ts.isStringLiteral(value)) {
    throw errorAt(app.appRoot, property, `the orderingAttribute of topic "${topic.name}" must be a string literal`);
  }
  const type = messageType(app, topic);
  const field = type && app.checker.getPropertyOfType(type, value.text);
  if (!field || !isAttribute(app.checker, app.checker.getTypeOfSymbol(field))) {
    throw errorAt(
      app.appRoot,
      value,
      `orderingAttribute "${value.text}" of topic "${topic.name}" must name a top-level field of its message declared as Attribute<...>`,
    );
  }
}

/** `Attribute<T>` is `T | (T & { __attributeBrand })`: a branded member marks it. */
function isAttribute(checker: ts.TypeChecker, type: ts.Type): boolean {
  const members = type.isUnion() ? type.types : [type];
  return members.some((member) => checker.getPropertyOfType(member, "__attributeBrand") !== undefined);
}

/** The topic's message type as JSON Schema. */
function messageSchema(app: AppProgram, schemas: SchemaBuilder, topic: Declared): JSONSchema {
  const written = topic.node.typeArguments?.[0];
  const type = messageType(app, topic);
  if (!type) return {};
  return schemas.schemaOf(type, { node: written ?? topic.node, owner: typeName(type) ?? `the message of topic "${topic.name}"`, field: "" });
}

/** `topic.publish(...)`, or `topic.ref<Publisher<...>>()`, which Encore counts as publishing too. */
function isPublishing(app: AppProgram, use: ts.Expression): boolean {
  const access = use.parent;
  if (!ts.isPropertyAccessExpression(access) || access.expression !== use) return false;
  const call = access.parent;
  if (!ts.isCallExpression(call) || call.expression !== access) return false;
  if (access.name.text === "publish") return true;
  const permission = call.typeArguments?.[0];
  return access.name.text === "ref" && permission !== undefined && ts.isTypeReferenceNode(permission) && isSdkExport(sdkExportOf(app.checker, permission.typeName), "pubsub", "Publisher");
}

/** The topic `new Subscription(topic, ...)` names, by Encore's rule that it must resolve to a declaration. */
function topicOf(app: AppProgram, node: ts.NewExpression, topics: readonly Declared[]): string {
  const arg = node.arguments![0]!;
  const declaration = namedResource(app, arg);
  const topic = topics.find((t) => t.node === declaration);
  if (!topic) throw errorAt(app.appRoot, arg, "the topic passed to new Subscription(...) must name a topic declared as `const name = new Topic(...)`");
  return topic.name;
}
