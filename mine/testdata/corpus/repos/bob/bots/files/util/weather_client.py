import httpx

BASE = "https://weather-now.p.rapidapi.com"


async def aqi(city):
    async with httpx.AsyncClient() as c:
        r = await c.get(BASE + "/v1/aqi", params={"city": city}, headers={"x-rapidapi-host": "weather-now.p.rapidapi.com"})
        return r.json()
