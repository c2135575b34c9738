/* nbody.c — gravitational n-body simulation of the outer solar system.
 *
 * Sun and the four gas giants (standard published masses, positions and
 * velocities in AU, AU/day and solar masses, with the Sun's momentum offset
 * so the system's total is zero), advanced STEPS times with a fixed time step
 * by symplectic Euler over all pairs. Floating-point throughput with a sqrt
 * and a divide per pair. Prints the total energy before and after. */
#include <math.h>
#include <stdio.h>

#ifndef STEPS
#define STEPS 5000000
#endif
#define NBODIES 5

static const double PI = 3.141592653589793;
#define DAYS_PER_YEAR 365.24

struct body {
    double x, y, z;
    double vx, vy, vz;
    double mass;
};

static struct body bodies[NBODIES];

static void setup(void)
{
    const double solar_mass = 4 * PI * PI;
    const double d = DAYS_PER_YEAR;
    /* Jupiter, Saturn, Uranus, Neptune */
    static const double init[4][7] = {
        {4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
         1.66007664274403694e-03, 7.69901118419740425e-03, -6.90460016972063023e-05,
         9.54791938424326609e-04},
        {8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
         -2.76742510726862411e-03, 4.99852801234917238e-03, 2.30417297573763929e-05,
         2.85885980666130812e-04},
        {1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
         2.96460137564761618e-03, 2.37847173959480950e-03, -2.96589568540237556e-05,
         4.36624404335156298e-05},
        {1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
         2.68067772490389322e-03, 1.62824170038242295e-03, -9.51592254519715870e-05,
         5.15138902046611451e-05},
    };
    bodies[0] = (struct body){0, 0, 0, 0, 0, 0, solar_mass};
    for (int i = 0; i < 4; i++) {
        const double *p = init[i];
        bodies[i + 1] = (struct body){p[0], p[1], p[2], p[3] * d, p[4] * d, p[5] * d,
                                      p[6] * solar_mass};
    }
    double px = 0, py = 0, pz = 0;
    for (int i = 0; i < NBODIES; i++) {
        px += bodies[i].vx * bodies[i].mass;
        py += bodies[i].vy * bodies[i].mass;
        pz += bodies[i].vz * bodies[i].mass;
    }
    bodies[0].vx = -px / solar_mass;
    bodies[0].vy = -py / solar_mass;
    bodies[0].vz = -pz / solar_mass;
}

static double energy(void)
{
    double e = 0.0;
    for (int i = 0; i < NBODIES; i++) {
        const struct body *a = &bodies[i];
        e += 0.5 * a->mass * (a->vx * a->vx + a->vy * a->vy + a->vz * a->vz);
        for (int j = i + 1; j < NBODIES; j++) {
            const struct body *b = &bodies[j];
            double dx = a->x - b->x, dy = a->y - b->y, dz = a->z - b->z;
            e -= a->mass * b->mass / sqrt(dx * dx + dy * dy + dz * dz);
        }
    }
    return e;
}

static void advance(double dt)
{
    for (int i = 0; i < NBODIES; i++) {
        struct body *a = &bodies[i];
        for (int j = i + 1; j < NBODIES; j++) {
            struct body *b = &bodies[j];
            double dx = a->x - b->x, dy = a->y - b->y, dz = a->z - b->z;
            double d2 = dx * dx + dy * dy + dz * dz;
            double mag = dt / (d2 * sqrt(d2));
            double ma = a->mass * mag, mb = b->mass * mag;
            a->vx -= dx * mb; a->vy -= dy * mb; a->vz -= dz * mb;
            b->vx += dx * ma; b->vy += dy * ma; b->vz += dz * ma;
        }
    }
    for (int i = 0; i < NBODIES; i++) {
        struct body *a = &bodies[i];
        a->x += dt * a->vx;
        a->y += dt * a->vy;
        a->z += dt * a->vz;
    }
}

int main(void)
{
    setup();
    printf("nbody: steps=%d\n", STEPS);
    printf("energy before = %.12f\n", energy());
    for (int s = 0; s < STEPS; s++)
        advance(0.01);
    printf("energy after  = %.12f\n", energy());
    printf("sun at %.12f %.12f %.12f\n", bodies[0].x, bodies[0].y, bodies[0].z);
    return 0;
}
