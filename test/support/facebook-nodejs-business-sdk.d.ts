/** The few classes of Meta's Business SDK the tests use to check the Conversions API payloads; it ships no types of its own. */
declare module 'facebook-nodejs-business-sdk' {
  export class UserData {
    setEmails(emails: string[]): this;
    setPhones(phones: string[]): this;
    setFbc(fbc: string): this;
  }
  export class CustomData {
    setValue(value: number): this;
    setCurrency(currency: string): this;
    setOrderId(orderId: string): this;
  }
  export class ServerEvent {
    setEventName(name: string): this;
    setEventTime(seconds: number): this;
    setEventId(id: string): this;
    setActionSource(source: string): this;
    setUserData(data: UserData): this;
    setCustomData(data: CustomData): this;
    normalize(): Record<string, unknown>;
  }
}
