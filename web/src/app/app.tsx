export function App() {
  return <h1>Laptop Market</h1>
}
