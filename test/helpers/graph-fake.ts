// The Graph fake lives in ./graph-fake/ (one module per concern); this file keeps the old import path.
export * from './graph-fake/index.js';
