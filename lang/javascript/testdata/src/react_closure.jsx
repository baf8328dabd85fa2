import React, { useEffect, useState } from "react";

// A component whose request function is declared inside it and reads the
// component's own constants: the program must carry them.
export default function PlayerStats({ season }) {
  const [stats, setStats] = useState([]);
  const statsUrl = "https://basketball-stats-live.p.rapidapi.com/players/stats";
  const rapidHost = "basketball-stats-live.p.rapidapi.com";
  const requestOptions = {
    headers: {
      "x-rapidapi-host": rapidHost,
      "x-rapidapi-key": process.env.REACT_APP_RAPIDAPI_KEY,
    },
  };

  // Loads the season's player statistics.
  const loadStats = () => {
    fetch(`${statsUrl}?season=${season}`, requestOptions)
      .then((res) => res.json())
      .then((body) => setStats(body.players))
      .catch((err) => console.error(err));
  };

  useEffect(() => {
    loadStats();
  }, [season]);

  return <ul>{stats.map((p) => <li key={p.id}>{p.name}</li>)}</ul>;
}
