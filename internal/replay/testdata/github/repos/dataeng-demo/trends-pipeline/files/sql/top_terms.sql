SELECT geo, title, max(traffic) AS peak
FROM daily_trends
GROUP BY geo, title
ORDER BY peak DESC
LIMIT 50;
