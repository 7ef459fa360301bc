export * from '../../tools/postgres-cluster.js';
