import { declareTopic, publish } from "../../internal/pubsub/mod.ts";
import { Publisher, type TopicPerms } from "./refs.ts";

export type DeliveryGuarantee = "at-least-once" | "exactly-once";

export type Attribute<T extends string | number | boolean> = T | (T & { readonly __attributeBrand: unique symbol });

export type AttributesOf<T extends object> = keyof {
  [K in keyof T as Extract<T[K], { readonly __attributeBrand: symbol }> extends never ? never : K]: never;
};

export interface TopicConfig<Msg extends object> {
  deliveryGuarantee: DeliveryGuarantee;
  orderingAttribute?: AttributesOf<Msg>;
}

/** A named stream of messages; every subscription receives each message at least once. */
export class Topic<Msg extends object> extends Publisher<Msg> {
  public readonly name: string;
  public readonly cfg: TopicConfig<Msg>;

  constructor(name: string, cfg: TopicConfig<Msg>) {
    super();
    this.name = name;
    this.cfg = cfg;
    declareTopic({ name, deliveryGuarantee: cfg.deliveryGuarantee, orderingAttribute: cfg.orderingAttribute as string | undefined });
  }

  /** Resolves to the message id once the message is durably stored. */
  public publish(msg: Msg): Promise<string> {
    return publish(this.name, msg);
  }

  public ref<P extends TopicPerms>(): P {
    return this as unknown as P;
  }
}
