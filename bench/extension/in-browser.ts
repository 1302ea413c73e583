import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { BrowserContext, Page } from 'playwright-core';

// The extension's figures that only a browser gives: the memory of its process with the service worker
// idle, and OCR time per image in the extractor (tesseract.js in the offscreen document), both in Debian's
// Chromium. CPU time is read from /proc for the extension's renderer process (the OCR runs in a worker of
// that process), so it stays meaningful when the machine is loaded.

// The rig (extension/test/browser.ts) is loaded by path and typed here by what is used: it is written
// against the DOM and chrome typings of the extension's tsconfig, which the server's tsconfig does not have.
interface Rig {
  dir: string;
  extensionId: string;
  context: BrowserContext;
  close(): Promise<void>;
}
interface RigModule {
  startRig(): Promise<Rig>;
  textImage(
    page: Page,
    o: { width: number; height: number; font: string; lines: string[]; top: number; step: number },
  ): Promise<string>;
}
const RIG = '../../extension/test/browser.js';

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const TICK_MS = 10; // USER_HZ is 100 on Linux

interface Proc {
  pid: number;
  ppid: number;
  cmd: string;
}

function processes(): Proc[] {
  const out: Proc[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').replace(/\0/g, ' ');
      out.push({ pid: Number(d), ppid, cmd });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The renderer processes hosting the extension (service worker, offscreen document) of the rig's browser. */
function extensionProcesses(profileDir: string): number[] {
  const all = processes();
  const root = all.find((p) => p.cmd.includes(`--user-data-dir=${profileDir}`) && !p.cmd.includes('--type='));
  if (!root) throw new Error('the rig browser process was not found');
  const family = new Set([root.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all)
      if (family.has(p.ppid) && !family.has(p.pid)) {
        family.add(p.pid);
        grew = true;
      }
  }
  return all.filter((p) => family.has(p.pid) && p.cmd.includes('--extension-process')).map((p) => p.pid);
}

function memoryKiB(pid: number): { rss: number; pss: number } {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0);
  return { rss: field('Rss'), pss: field('Pss') };
}

function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]); // utime, stime
    } catch {
      // exited
    }
  }
  return ticks * TICK_MS;
}

export async function benchInBrowser(): Promise<void> {
  const { startRig, textImage } = (await import(RIG)) as RigModule;
  const rig = await startRig();
  try {
    // Idle: no extension page open, nothing asked of the worker for a while.
    for (const p of rig.context.pages()) if (p.url().startsWith('chrome-extension://')) await p.close();
    await new Promise((r) => setTimeout(r, 15_000));
    const pids = extensionProcesses(`${rig.dir}/profile`);
    const mem = pids.map(memoryKiB).reduce((a, b) => ({ rss: a.rss + b.rss, pss: a.pss + b.pss }), {
      rss: 0,
      pss: 0,
    });
    console.log(
      `\nservice worker idle (15 s, no extension page open): extension process RSS ${(mem.rss / 1024).toFixed(1)} MiB, PSS ${(mem.pss / 1024).toFixed(1)} MiB (${pids.length} process; load ${load()})`,
    );

    // OCR: a 1280×800 (1.02 megapixel) screenshot-like image of text.
    const page = await rig.context.newPage();
    await page.goto(`chrome-extension://${rig.extensionId}/popup.html`);
    const lines = [
      'Invoice 2026-1187 — payment instructions',
      'Payee: Anna Schmidt, Hauptstrasse 12, 8001 Zurich',
      'IBAN DE89 3704 0044 0532 0130 00, BIC COBADEFFXXX',
      'Contact: anna.schmidt@example.com, +41 79 123 45 67',
      'Please pay within 30 days of the invoice date.',
    ];
    const base64 = await textImage(page, {
      width: 1280,
      height: 800,
      font: '22px sans-serif',
      lines: Array.from({ length: 26 }, (_, i) => lines[i % lines.length]!),
      top: 40,
      step: 29,
    });
    const ocr = async (languages: string[]) => {
      const procs = extensionProcesses(`${rig.dir}/profile`);
      const cpu0 = cpuMs(procs);
      const t0 = performance.now();
      const msg = { kind: 'extract', request: { name: 'screen.png', mime: 'image/png', base64, languages } };
      const r = (await page.evaluate(`chrome.runtime.sendMessage(${JSON.stringify(msg)})`)) as {
        text?: string;
        error?: string;
      };
      if (!r.text) throw new Error(`OCR failed: ${r.error ?? 'no text'}`);
      return { ms: performance.now() - t0, cpu: cpuMs(extensionProcesses(`${rig.dir}/profile`)) - cpu0 };
    };
    for (const [label, langs, warm] of [
      ['eng', ['en'], 4],
      ['deu+fra+ita+eng', ['de', 'fr', 'it'], 2],
    ] as const) {
      const cold = await ocr([...langs]);
      console.log(
        `OCR 1 MP screenshot, ${label.padEnd(16)} first (worker + models) ${cold.ms.toFixed(0).padStart(6)} ms  cpu ${cold.cpu.toFixed(0).padStart(6)} ms  (load ${load()})`,
      );
      const runs: Array<{ ms: number; cpu: number }> = [];
      for (let i = 0; i < warm; i++) runs.push(await ocr([...langs]));
      runs.sort((a, b) => a.ms - b.ms);
      const mid = runs[Math.floor(runs.length / 2)]!;
      const cpu = runs.reduce((n, r) => n + r.cpu, 0) / runs.length;
      console.log(
        `OCR 1 MP screenshot, ${label.padEnd(16)} next ones p50        ${mid.ms.toFixed(0).padStart(6)} ms  cpu/op ${cpu.toFixed(0).padStart(6)} ms  (n=${runs.length}, load ${load()})`,
      );
    }
    await page.close();
  } finally {
    await rig.close();
  }
}
