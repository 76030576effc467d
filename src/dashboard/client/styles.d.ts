// esbuild bundles the style sheet imported by main.ts into the dashboard's one CSS file.
declare module '*.css';
