import { defineConfig } from "vite";

// Tauri loads the built files from ui/dist; in development it loads this server.
export default defineConfig({
  clearScreen: false,
  server: { port: 5173, strictPort: true },
  build: { target: "es2022", outDir: "dist", emptyOutDir: true },
  test: { environment: "jsdom", globals: true, include: ["src/**/*.test.ts"] },
});
