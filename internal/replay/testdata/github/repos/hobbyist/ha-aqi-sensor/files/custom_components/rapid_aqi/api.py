"""API client for the Air Quality Index service on RapidAPI."""
from __future__ import annotations

import asyncio
import logging

import aiohttp
import async_timeout

_LOGGER = logging.getLogger(__name__)

AQI_HOST = "air-quality-index.p.rapidapi.com"


class AqiApiError(Exception):
    """Raised when the API cannot be reached or answers with an error."""


class AqiApiClient:
    def __init__(self, session: aiohttp.ClientSession, api_key: str) -> None:
        self._session = session
        self._api_key = api_key

    async def async_get_by_city(self, city: str) -> dict:
        """Get the AQI for a city name."""
        return await self._get("/v1/aqi", {"city": city})

    async def async_get_by_location(self, lat: float, lon: float) -> dict:
        """Get the AQI for coordinates (used when no city is configured)."""
        return await self._get("/v1/aqi/geo", {"lat": lat, "lon": lon})

    async def _get(self, path: str, params: dict) -> dict:
        headers = {"X-RapidAPI-Key": self._api_key, "X-RapidAPI-Host": AQI_HOST}
        try:
            async with async_timeout.timeout(10):
                response = await self._session.get(f"https://{AQI_HOST}{path}", headers=headers, params=params)
                if response.status in (401, 403):
                    raise AqiApiError("invalid API key")
                response.raise_for_status()
                return await response.json()
        except (asyncio.TimeoutError, aiohttp.ClientError) as err:
            _LOGGER.error("Error talking to %s: %s", AQI_HOST, err)
            raise AqiApiError from err
