import { ChildProcess, spawn } from 'node:child_process';

export interface AppProcessOptions {
  /** Names the process in failure messages: `platform`, `payments#1`, … */
  label: string;
  /** The built entry point (`dist/apps/<app>/src/main.js`). */
  main: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Its ops server (`http://127.0.0.1:<ops port>`): ready once /readyz answers 200. */
  opsOrigin: string;
  /** Echo its output (stdout and stderr) to ours. */
  verbose?: boolean;
}

/** How a process ended that nobody asked to end: a replica that crashed on its own. */
export interface UnexpectedExit {
  label: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/**
 * A built app as a child process, always with the same environment (ports, database, credentials), so it can be
 * SIGKILLed and started again as a machine that crashed and came back: its output is kept (the last 200 chunks) for
 * failure messages, an exit nobody asked for is recorded, and start waits for its /readyz.
 */
export class AppProcess {
  private child?: ChildProcess;
  private readonly tail: string[] = [];
  /** Set while we are stopping or killing it: that exit is expected. */
  private ending = false;
  readonly unexpectedExits: UnexpectedExit[] = [];
  starts = 0;

  constructor(readonly options: AppProcessOptions) {}

  get label(): string {
    return this.options.label;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The last lines the process printed, for failure messages. */
  output(): string {
    return this.tail.join('');
  }

  /** Spawns it, without waiting for anything. */
  spawn(): void {
    if (this.running) throw new Error(`${this.label} already running`);
    this.starts++;
    this.ending = false;
    const child = spawn(process.execPath, [this.options.main], { cwd: this.options.cwd, env: this.options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    const keep = (chunk: Buffer) => {
      this.tail.push(chunk.toString());
      if (this.tail.length > 200) this.tail.splice(0, this.tail.length - 200);
      if (this.options.verbose) process.stderr.write(chunk);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    child.once('exit', (code, signal) => {
      if (!this.ending) this.unexpectedExits.push({ label: this.label, code, signal, output: this.output() });
    });
  }

  /** Waits until its /readyz answers 200 (every dependency up); throws when it exits first or time runs out. */
  async waitReady(timeoutMs = 120_000): Promise<void> {
    const child = this.child;
    if (!child) throw new Error(`${this.label} was never started`);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`${this.label} exited during start (code ${child.exitCode}, signal ${child.signalCode}); output:\n${this.output()}`);
      }
      if (await this.ready()) return;
      if (Date.now() > deadline) throw new Error(`${this.label} not ready after ${timeoutMs} ms; output:\n${this.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** /readyz answers 200 now. */
  ready(): Promise<boolean> {
    return fetch(`${this.options.opsOrigin}/readyz`, { signal: AbortSignal.timeout(3_000) }).then((r) => r.status === 200, () => false);
  }

  async start(timeoutMs = 120_000): Promise<void> {
    this.spawn();
    await this.waitReady(timeoutMs);
  }

  /** SIGKILL: no shutdown hooks, no flushing, connections dropped mid-request. */
  async kill(): Promise<void> {
    await this.signal('SIGKILL');
  }

  /** SIGTERM (a clean stop), SIGKILL if it does not exit in time. */
  async stop(timeoutMs = 30_000): Promise<void> {
    if (!this.running) return;
    const exited = this.signal('SIGTERM');
    const late = setTimeout(() => this.child?.kill('SIGKILL'), timeoutMs);
    await exited.finally(() => clearTimeout(late));
  }

  private signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return Promise.resolve();
    this.ending = true;
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    child.kill(signal);
    return exited;
  }
}
