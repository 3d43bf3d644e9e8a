# Skirmish GM: the Discord bot. Build: docker build -t skirmish-gm .
# Run:   docker run -e DISCORD_TOKEN=... -v skirmish-data:/data skirmish-gm
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    SKIRMISH_GM_DATA=/data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY rules ./rules
COPY migrations ./migrations
RUN pip install --no-cache-dir . \
 && useradd --create-home --uid 10001 skirmish \
 && mkdir -p /data && chown skirmish:skirmish /data

USER skirmish
VOLUME ["/data"]
# Migrations first, then the bot (which would also upgrade on start; doing it first fails fast).
# Without DISCORD_TOKEN the container says it needs one and stops (no terminal to fall back to).
CMD ["sh", "-c", "skirmish-gm migrate && exec skirmish-gm run --no-terminal"]
