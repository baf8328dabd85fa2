from fastapi import FastAPI, HTTPException
import httpx

from pitwall import f1api

app = FastAPI(title="pitwall")


@app.get("/seasons/{season}/races")
async def races(season: int):
    try:
        return await f1api.season_races(season)
    except httpx.HTTPStatusError as exc:
        raise HTTPException(status_code=exc.response.status_code, detail="upstream error")


@app.get("/seasons/{season}/drivers")
async def drivers(season: int):
    return await f1api.season_drivers(season)


@app.get("/health")
async def health():
    return {"ok": True}
