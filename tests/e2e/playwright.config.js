// Browser tests of the web game in Debian's Chromium. scripts/run-e2e.sh starts `ur serve`
// and passes its address in UR_BASE_URL.
const { defineConfig } = require('@playwright/test');

const baseURL = process.env.UR_BASE_URL || 'http://127.0.0.1:8080';

module.exports = defineConfig({
  testDir: './specs',
  timeout: 90_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  outputDir: '../../build/e2e-results',
  use: {
    baseURL,
    reducedMotion: 'reduce',
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
