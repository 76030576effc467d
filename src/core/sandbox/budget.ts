/** A shared cap on live containers (ready, starting or in use, until removed) across all pools. */
export class ContainerBudget {
  private live = 0;
  private readonly listeners = new Set<() => void>();

  constructor(readonly max: number) {}

  get used(): number {
    return this.live;
  }

  tryTake(): boolean {
    if (this.live >= this.max) return false;
    this.live += 1;
    return true;
  }

  release(): void {
    this.live = Math.max(0, this.live - 1);
    for (const listener of this.listeners) listener();
  }

  onRelease(listener: () => void): void {
    this.listeners.add(listener);
  }
}
