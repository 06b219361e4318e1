import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type DefaultTheme } from 'vitepress';

// The API reference's sidebar, written by typedoc-vitepress-theme next to the pages it generated
// (`npm run build` generates it first; it is never committed).
const apiSidebarFile = fileURLToPath(new URL('../api/typedoc-sidebar.json', import.meta.url));
const apiSidebar: DefaultTheme.SidebarItem[] = existsSync(apiSidebarFile) ? JSON.parse(readFileSync(apiSidebarFile, 'utf8')) : [];

const guide: DefaultTheme.SidebarItem[] = [
  {
    text: 'Introduction',
    items: [
      { text: 'Getting started', link: '/guide/getting-started' },
      { text: 'Moving from @openai/agents', link: '/guide/migration' },
    ],
  },
  {
    text: 'Guides',
    items: [
      { text: 'Agents and tools', link: '/guide/agents-and-tools' },
      { text: 'Guardrails', link: '/guide/guardrails' },
      { text: 'Handoffs', link: '/guide/handoffs' },
      { text: 'Streaming and streaming tools', link: '/guide/streaming' },
      { text: 'Human in the loop and stores', link: '/guide/human-in-the-loop' },
      { text: 'Durable runs', link: '/guide/durable-runs' },
      { text: 'Versions side by side', link: '/guide/versions-side-by-side' },
      { text: 'Providers', link: '/guide/providers' },
      { text: 'Tracing', link: '/guide/tracing' },
      { text: 'MCP', link: '/guide/mcp' },
      { text: 'Security', link: '/guide/security' },
      { text: 'Testing', link: '/guide/testing' },
    ],
  },
  {
    text: 'Design',
    items: [{ text: 'Architecture', link: '/architecture' }],
  },
];

// Where the site is served: `/` by `npm run docs`; a project's GitHub Pages site is served under
// `/<repository>/`, which .github/workflows/docs.yml passes as DOCS_BASE.
const base = process.env.DOCS_BASE ?? '/';

export default defineConfig({
  base,
  title: 'Baton',
  description: 'An agents SDK for TypeScript: agents, tools, guardrails, handoffs, streaming, human in the loop and durable runs.',
  lang: 'en-US',
  head: [['link', { rel: 'icon', type: 'image/svg+xml', href: `${base}favicon.svg` }]],
  // Pages are the Markdown files here; samples/ and scripts/ hold code, not pages.
  srcExclude: ['samples/**', 'scripts/**', 'node_modules/**', '**/README.md'],
  lastUpdated: false,
  // Dead links fail the build (VitePress's default, kept on purpose).
  ignoreDeadLinks: false,
  themeConfig: {
    logo: '/favicon.svg',
    nav: [
      { text: 'Guide', link: '/guide/getting-started', activeMatch: '^/guide/' },
      { text: 'API', link: '/api/', activeMatch: '^/api/' },
    ],
    sidebar: {
      '/guide/': guide,
      '/architecture': guide,
      '/api/': [{ text: 'API reference', link: '/api/' }, ...apiSidebar],
    },
    search: { provider: 'local' },
    outline: { level: [2, 3] },
  },
});
