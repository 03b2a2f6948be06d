/// <reference types="vite/client" />
// Every real-engine suite (`*.suite.ts`), in this one file: they share the engines, the registry and the
// test image and must not run at the same time (each sweeps its `re-` containers and the pulled image at
// its end), and vitest runs a project limited to one worker only after every other file of the run. As
// one file, they run on one of the run's workers from its start, beside the other files.
import.meta.glob('./*.suite.ts', { eager: true });
