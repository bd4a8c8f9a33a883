# The orders service in a container: `node dist/...` as a non-root user, the SQLite file on a volume.
# Not built in this project's CI (its machine has no container engine); see docs/operations.md, "Running it
# in production".
#   docker build -t orders-service .
#   docker run -p 3000:3000 -v orders-data:/data orders-service
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json tsconfig.browser.json ./
COPY src ./src
COPY browser ./browser
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 SQLITE_PATH=/data/orders.db
WORKDIR /app
COPY --from=build /app/package.json ./
COPY LICENSE NOTICE ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/browser ./dist/browser
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=15s --retries=3 \
  CMD ["node", "-e", "require('http').get({ host: '127.0.0.1', port: process.env.PORT, path: '/healthz', timeout: 2000 }, (r) => process.exit(r.statusCode === 200 ? 0 : 1)).on('error', () => process.exit(1))"]
STOPSIGNAL SIGTERM
# --max-semi-space-size=16: see docs/operations.md, "Memory".
CMD ["node", "--max-semi-space-size=16", "dist/src/bootstrap/main.js"]
